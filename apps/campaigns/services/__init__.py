"""Campaign writes, one module per concern. Authority first: the domain server is called before
the projection changes, and never while a database transaction is open."""
