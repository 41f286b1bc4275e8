"""The HTTP layer: raw-path routing, authentication, parameters, pagination and errors.

Dispatch is synchronous (:func:`fakeservice.web.dispatch.dispatch`); the ASGI adapter
and the in-process transports for ``requests`` and ``httpx`` all call it.
"""
