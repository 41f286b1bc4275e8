"""Avatars of users, groups and projects: the ``avatar`` multipart file their create and
edit endpoints accept, stored in the store and served under ``/uploads``."""
