"""Rules engines. Each game is a subpackage that imports only :mod:`hexfolk.core`."""
