"""The bodies of hook deliveries, one module per kind of event, in the service's shapes
(``object_kind``, ``event_name``, ``user``, ``project``, ``repository``,
``object_attributes``, ...)."""
