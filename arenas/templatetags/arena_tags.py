"""``{% arena_section profile_user %}``: the profile's arenas (README "Arenas",
Profiles): podium finishes counted, then the player's latest arenas with
their place once finished. A tag, so the profile page of ``games`` needs no
import of arenas (as ``challenge_section`` does for matchmaking)."""

from django import template
from django.db.models import Count, Q

from arenas.models import ArenaPlayer

register = template.Library()

#: Arenas listed on a profile, newest first.
PROFILE_ARENAS = 10


def podium_place(entry: ArenaPlayer) -> int | None:
    """1, 2 or 3 for a podium finish (a final place in the first three, with
    points: the podium leaves out those who scored nothing); else None."""
    if entry.final_rank is not None and entry.final_rank <= 3 and entry.points > 0:
        return entry.final_rank
    return None


@register.inclusion_tag("arenas/profile_section.html")
def arena_section(profile_user):
    entries = ArenaPlayer.objects.filter(user=profile_user)
    podiums = entries.aggregate(
        podiums=Count("pk", filter=Q(final_rank__lte=3, points__gt=0)),
        wins=Count("pk", filter=Q(final_rank=1, points__gt=0)))
    latest = list(entries.select_related("arena")
                  .annotate(field=Count("arena__players", filter=~Q(arena__players__status="disqualified")))
                  .order_by("-arena__starts_at", "-pk")[:PROFILE_ARENAS])
    return {"profile_user": profile_user, "entries": [(e, podium_place(e)) for e in latest], **podiums}
