"""Site-wide notifications: what concerns a signed-in person, told on whatever
page they have open (README "Notifications"). ``notifications.notify`` is the
API other apps call; ``notifications.consumers`` is the user socket."""
