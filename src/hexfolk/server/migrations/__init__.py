"""Alembic migrations of the server's database, run by :func:`hexfolk.server.store.upgrade`."""
