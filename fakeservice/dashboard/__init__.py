"""The live dashboard at ``/_fake/dashboard``: static files, a state endpoint built from
registered panels (:mod:`.panels`) and a server-sent event stream (:mod:`.events`)."""
