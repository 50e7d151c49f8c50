"""Serving solved spots: NodeDocument v1 (``documents``), packs of postflop solves (``pack``),
the read-only HTTP API and web app (``app``; ``pokerlab serve``), and the app's static files."""
