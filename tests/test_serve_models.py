"""The API's typed models and its generated OpenAPI: every route is described with its response
model and the error model, every body served round-trips through its model, each NodeDocument
model has the fields of its JSON Schema, errors have the error model's shape, a malformed id is
a 400 (never a 422), an unknown path a 404, and HEAD answers what GET does without the body."""

import warnings

import pytest
from model_checks import round_trips
from pydantic import BaseModel, ValidationError

pytest.importorskip("httpx")
with warnings.catch_warnings():  # starlette's notice that httpx is to be replaced by httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from fastapi.routing import APIRoute  # noqa: E402
from starlette.routing import Mount  # noqa: E402

from pokerlab.serve.app import create_app  # noqa: E402
from pokerlab.serve.documents import POSTFLOP_SCHEMA, PREFLOP_SCHEMA, load_schema, validate_document  # noqa: E402
from pokerlab.serve.models import (ChartNodeList, ErrorBody, NodeDocument, PackNodeList,  # noqa: E402
                                   PreflopNodeDocument, SetsList)

CHART = "/api/v1/charts/cash/3max/15bb"
PACK = "/api/v1/packs/river/spots/river_kt742"


@pytest.fixture(scope="module")
def client(served_release):
    return TestClient(create_app(served_release[0]), raise_server_exceptions=False)


def _refs(schema: dict) -> set[str]:
    """The component names a response schema refers to (one, or the members of an anyOf)."""
    if "$ref" in schema:
        return {schema["$ref"].rsplit("/", 1)[1]}
    return set().union(*(_refs(s) for s in schema.get("anyOf", [])))


def _model_names(annotation) -> set[str]:
    return {annotation.__name__} if isinstance(annotation, type) else {m.__name__ for m in annotation.__args__}


READ_API = {("GET", "/api/v1/sets"), ("GET", "/api/v1/charts/{format}/{table}/{depth}/nodes"),
            ("GET", "/api/v1/charts/{format}/{table}/{depth}/nodes/{node_path}"),
            ("GET", "/api/v1/packs/{pack}/spots/{family_id}/nodes"),
            ("GET", "/api/v1/packs/{pack}/spots/{family_id}/nodes/{node_path}")}
SESSIONS_API = {("GET", "/api/v1/sessions"), ("POST", "/api/v1/sessions"), ("POST", "/api/v1/sessions/exports"),
                ("GET", "/api/v1/sessions/exports/progress")}
NOT_DESCRIBED = {"/openapi.json", "/", "/app"}  # the description itself and the web app's files


@pytest.fixture(scope="module")
def sessions_client(served_release, equity_table, tmp_path_factory):
    from sessions_fixtures import make_data_dir

    tmp = tmp_path_factory.mktemp("sessions")
    data = make_data_dir(tmp, equity_table.win + equity_table.tie / 2, served_release[0])
    return TestClient(create_app(served_release[0], data), base_url="http://127.0.0.1:8765")


@pytest.mark.parametrize("with_sessions", [False, True])
def test_every_route_is_in_the_openapi_with_its_response_and_error_models(request, with_sessions):
    client = request.getfixturevalue("sessions_client" if with_sessions else "client")
    spec = client.get("/openapi.json").json()
    assert spec == client.app.openapi() and spec["openapi"].startswith("3.1")
    described, hidden = set(), set()
    for route in client.app.routes:
        if isinstance(route, Mount) or not route.include_in_schema:
            hidden.add(route.path)
            continue
        assert isinstance(route, APIRoute) and route.response_model is not None, route.path
        (method,) = route.methods
        responses = spec["paths"][route.path][method.lower()]["responses"]
        success = responses[str(route.status_code or 200)]
        assert _refs(success["content"]["application/json"]["schema"]) == _model_names(route.response_model)
        if (method, route.path) in READ_API:
            assert set(success["headers"]) == {"ETag", "Cache-Control"} and "304" in responses
        for status, response in responses.items():
            if status[0] in "45":
                assert _refs(response["content"]["application/json"]["schema"]) == {"ErrorBody"}, (route.path, status)
        parameters = spec["paths"][route.path][method.lower()].get("parameters", [])
        assert {p["name"] for p in parameters if p["in"] == "path"} == set(route.param_convertors), route.path
        described.add((method, route.path))
    assert described == READ_API | (SESSIONS_API if with_sessions else set())
    assert hidden == NOT_DESCRIBED | ({"/sessions"} if with_sessions else set())  # the dashboard's page
    assert {(m.upper(), p) for p, ops in spec["paths"].items() for m in ops} == described  # nothing more
    assert not any("422" in op["responses"] for ops in spec["paths"].values() for op in ops.values())
    assert not {"HTTPValidationError", "ValidationError"} & set(spec["components"]["schemas"])
    assert client.get("/openapi.json").headers["cache-control"] == "no-cache"
    for path in ("/docs", "/redoc"):  # FastAPI's pages would load their scripts from a CDN
        assert client.get(path).status_code == 404


def test_the_sessions_bodies_round_trip_through_their_models(sessions_client):
    from pokerlab.sessions.web import LoggedSession, SessionsDashboard, UploadProgress

    dashboard = sessions_client.get("/api/v1/sessions")
    round_trips(SessionsDashboard, dashboard.content)
    round_trips(UploadProgress, sessions_client.get("/api/v1/sessions/exports/progress").content)
    p = dashboard.json()["proposals"][0]
    logged = sessions_client.post("/api/v1/sessions", json={k: p[k] for k in ("start", "end", "hands", "stakes")})
    assert logged.status_code == 201
    round_trips(LoggedSession, logged.content)
    for r in (sessions_client.post("/api/v1/sessions", json=[]),
              sessions_client.post("/api/v1/sessions/exports?name=x.txt", content=b"x"),
              TestClient(sessions_client.app, base_url="http://rebound.example").get("/api/v1/sessions")):
        assert r.status_code in (400, 403)
        round_trips(ErrorBody, r.content)
    r = sessions_client.put("/api/v1/sessions")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD, POST"


def test_every_body_served_round_trips_through_its_model(client):
    round_trips(SetsList, client.get("/api/v1/sets").content)
    for chart_set in ("cash/3max/15bb", "mtt/3max/15bb"):
        listed = client.get(f"/api/v1/charts/{chart_set}/nodes")
        round_trips(ChartNodeList, listed.content)
        for node in listed.json()["nodes"]:
            round_trips(PreflopNodeDocument, client.get(f"/api/v1/charts/{chart_set}/nodes/{node['node_path']}").content)
    listed = client.get(f"{PACK}/nodes")
    round_trips(PackNodeList, listed.content)
    for path in listed.json()["nodes"]:
        round_trips(NodeDocument, client.get(f"{PACK}/nodes/{path}").content)


def _resolve(schema: dict, fragment: dict) -> dict:
    while "$ref" in fragment:
        fragment = schema["$defs"][fragment["$ref"].rsplit("/", 1)[1]]
    return fragment


def _nested_model(annotation):
    """The model a field holds (itself, or its list items), else None."""
    for candidate in (annotation, *getattr(annotation, "__args__", ())):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None


def _same_fields(model: type[BaseModel], schema: dict, fragment: dict, where: str) -> int:
    """Assert ``model`` and the JSON Schema object ``fragment`` have the same fields, the same
    required ones and the same openness, recursing into nested models; returns the objects compared."""
    fragment = _resolve(schema, fragment)
    fields = {f.alias or name: f for name, f in model.model_fields.items()}
    assert set(fields) == set(fragment["properties"]), where
    assert {n for n, f in fields.items() if f.is_required()} == set(fragment.get("required", [])), where
    assert (model.model_config.get("extra") == "forbid") == (fragment.get("additionalProperties") is False), where
    compared = 1
    for name, field in fields.items():
        nested = _nested_model(field.annotation)
        if nested is not None:
            sub = _resolve(schema, fragment["properties"][name])
            compared += _same_fields(nested, schema, sub.get("items", sub), f"{where}.{name}")
    return compared


@pytest.mark.parametrize("model, name, objects", [(NodeDocument, POSTFLOP_SCHEMA, 6),
                                                  (PreflopNodeDocument, PREFLOP_SCHEMA, 7)])
def test_each_document_model_has_the_fields_of_its_json_schema(model, name, objects):
    schema = load_schema(name)
    assert _same_fields(model, schema, schema, name) == objects


@pytest.mark.parametrize("change", [
    lambda d: d.update(extra_field=1),
    lambda d: d.pop("grid169"),
    lambda d: d["actions"][0].update(kind="limp"),
    lambda d: d["meta"].update(tier="forever"),
    lambda d: d["grid169"].pop(),
    lambda d: d["strategy"].update(XxYy=[1.0]),
])
@pytest.mark.parametrize("url", [f"{CHART}/nodes/root", f"{PACK}/nodes/root"])
def test_a_document_its_schema_refuses_its_model_refuses_too(client, url, change):
    doc = client.get(url).json()
    model = PreflopNodeDocument if doc["street"] == "preflop" else NodeDocument
    change(doc)
    with pytest.raises(ValueError):
        validate_document(doc, strict=True)
    with pytest.raises(ValidationError):
        model.model_validate(doc)


@pytest.mark.parametrize("url, status", [
    (f"{CHART}/nodes/FFFF", 404), ("/api/v1/charts/cash/3max/40bb/nodes", 404), ("/api/v1/nothing", 404),
    (f"{PACK}/nodes/root.bet_75", 404), ("/api/v1/packs/nopack/spots/x/nodes", 404),
    (f"{CHART}/nodes/FXR", 400), ("/api/v1/charts/CASH/3max/15bb/nodes", 400), ("/api/v1/charts/cash/10max/15bb/nodes", 400),
    (f"{PACK}/nodes/root..call", 400), (f"{PACK}/nodes?after=root..x", 400), ("/api/v1/packs/a%20b/spots/x/nodes", 400),
])
def test_errors_have_the_error_models_shape_and_a_malformed_id_is_400_never_422(client, url, status):
    r = client.get(url)
    assert r.status_code == status and r.headers["content-type"] == "application/json"
    round_trips(ErrorBody, r.content)
    assert r.json()["error"]["status"] == status


def test_405_and_500_answers_have_the_error_models_shape(client, tmp_path):
    for path in ("/api/v1/sets", f"{CHART}/nodes/root", "/", "/app/app.js", "/openapi.json"):
        r = client.post(path)
        assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD", path
        round_trips(ErrorBody, r.content)
    chart = tmp_path / "charts" / "cash" / "2max" / "10bb.json.gz"
    chart.parent.mkdir(parents=True)
    chart.write_text("{}")
    broken = TestClient(create_app(tmp_path)).get("/api/v1/charts/cash/2max/10bb/nodes")
    assert broken.status_code == 500
    round_trips(ErrorBody, broken.content)


@pytest.mark.parametrize("url", ["/api/v1/sets", f"{CHART}/nodes/root", f"{PACK}/nodes", "/", "/app/app.js",
                                 "/openapi.json", f"{CHART}/nodes/FFFF"])
def test_head_answers_what_get_does_without_the_body(client, url):
    got, head = client.get(url), client.head(url)
    assert head.status_code == got.status_code and head.content == b""
    for name in ("content-type", "content-length", "etag", "cache-control"):
        assert head.headers.get(name) == got.headers.get(name), name
