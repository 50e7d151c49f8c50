"""Session tracking: the ledger, hand-history exports clustered into sessions, per-session
push/fold grade and luck cards, and the dashboard (see :mod:`pokerlab.sessions.ledger` for
the accounting identities)."""
