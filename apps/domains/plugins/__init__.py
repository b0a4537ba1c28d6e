"""One module per game system; each exposes `Plugin`, its `DomainPlugin` subclass."""
