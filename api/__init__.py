"""The bot and board API (``/api/``, docs/api.md): personal tokens, event and
match streams as NDJSON, moves and the other actions a player takes, as JSON.

It sits above every app but config: it calls their actions and queries,
never their internals, and adds nothing to the WebSocket path.
"""
