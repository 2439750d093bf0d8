"""Rooms whose match ended before rooms went back to their lobby (README
"Private rooms") are in their lobby now, with their members in their seats."""

from django.db import migrations


def back_to_the_lobby(apps, schema_editor):
    Room = apps.get_model("matchmaking", "Room")
    RoomMember = apps.get_model("matchmaking", "RoomMember")
    RoomSeat = apps.get_model("matchmaking", "RoomSeat")
    for room in Room.objects.filter(status="playing", match__status__in=("finished", "aborted")):
        active = RoomMember.objects.filter(room=room, status="active").values("user_id")
        RoomSeat.objects.filter(room=room, user__isnull=False).exclude(user_id__in=active).update(user=None)
        room.status = "open"
        room.version += 1
        room.save(update_fields=["status", "version"])


class Migration(migrations.Migration):
    dependencies = [("matchmaking", "0004_rematch_challenge")]

    operations = [migrations.RunPython(back_to_the_lobby, migrations.RunPython.noop)]
