"""Broadcast messages (``/broadcast_messages``): instance-wide banners and notifications."""
