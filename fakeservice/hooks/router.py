"""The hooks area's one router, shared by its routes modules (``routes``,
``system_routes``, ``control``)."""

from fakeservice.web.routing import AreaRouter

api = AreaRouter("hooks")
