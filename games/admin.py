"""Matches, rating changes and voids in the admin (README "Moderation").

Every model here is read-only by hand (``ReadOnlyAdmin``): matches change
only through ``games.actions``; moderation/admin.py adds the abort and void
actions to the match admin. A match's seed is never shown before the match
has ended: the field is not in the admin at all, and a read-only "revealed
seed" appears once the match is over. Nor is any other secret of a live
match (README "Moderation"): the engine state only once it is over, and the
move list leaves out the notation of every move the engine says records
something a spectator may not know (``MoveFormSet``).
"""

from django.contrib import admin
from django.db.models.constants import LOOKUP_SEP
from django.forms.models import BaseInlineFormSet
from django.utils.translation import gettext_lazy

from accounts.admin_tools import ReadOnlyAdmin, ReadOnlyInline
from games import record
from games.models import Match, Move, RatingChange, RatingVoid, Seat

#: The list filter of a ``GameKindField``: one choice per registered game.
KIND_FILTER = ("kind", admin.ChoicesFieldListFilter)

#: Match fields and relations no list filter may touch (``MatchAdmin.lookup_allowed``).
SECRET_LOOKUPS = frozenset({"seed", "state", "start_state", "moves"})

MATCH_FIELDS = (
    "public_id", "kind", "status", "end_reason", "rated", "is_public", "host", "options",
    "computer_speed", "theme", "turn_seconds", "idle_limit", "version", "ply_count", "deadline",
    "paused_remaining", "seed_hash", "created_at", "started_at", "finished_at", "updated_at",
)


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("index", "colour", "user", "computer_level", "status", "missed_turns", "rank", "joined_at")
    readonly_fields = fields
    show_change_link = False


class MoveFormSet(BaseInlineFormSet):
    """The match's moves, each given ``admin_notation``: its notation, or, while
    the match is live, a placeholder where the engine says the move records
    something a spectator may not know yet (a drawn tile, a face-down colour:
    ``games.record.hidden_plies``). Moderators watch a live match as a
    spectator does (README "Moderation")."""

    def get_queryset(self):
        qs = super().get_queryset()
        if not getattr(self, "_redacted", False):
            self._redacted = True
            moves = list(qs)  # fills the queryset's cache: the forms get these very rows
            hidden = record.hidden_plies(self.instance, moves)
            for m in moves:
                m.admin_notation = HIDDEN_NOTATION if m.ply in hidden else m.notation
        return qs


HIDDEN_NOTATION = "(hidden until the match ends)"


class MoveInline(ReadOnlyInline):
    model = Move
    formset = MoveFormSet
    fields = ("ply", "actor", "seat", "move", "chance_index", "version_after", "created_at")
    readonly_fields = fields
    show_change_link = False

    @admin.display(description=gettext_lazy("notation"))
    def move(self, obj):
        return getattr(obj, "admin_notation", HIDDEN_NOTATION)


class RatingChangeInline(ReadOnlyInline):
    model = RatingChange
    fields = ("user", "kind", "before", "after", "delta", "created")
    readonly_fields = fields
    show_change_link = False


class RatingVoidInline(ReadOnlyInline):
    model = RatingVoid
    fields = ("user", "delta", "rating_before", "rating_after", "games_before", "games_after",
              "peak_before", "peak_after", "voided_by", "reason", "created_at")
    readonly_fields = fields
    show_change_link = False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ("public_id", "kind", "status", "rated", "players", "created_at", "finished_at", "voided")
    list_filter = (KIND_FILTER, "status", "rated", "created_at",
                   ("seats__user", admin.RelatedOnlyFieldListFilter))
    search_fields = ("public_id", "seats__user__username")
    date_hierarchy = "created_at"
    exclude = ("seed", "state", "start_state")
    inlines = [SeatInline, RatingChangeInline, RatingVoidInline, MoveInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__user", "rating_voids")

    def lookup_allowed(self, lookup, value, request):
        """No filter of the list on what the admin never shows: the seed, the
        engine states, or the moves' notation. The admin takes any field of
        the model in the query string (``?seed__startswith=9``), and the
        count it answers ("1 match", "0 matches") would tell them, one
        character at a time, for a live match."""
        if lookup.split(LOOKUP_SEP, 1)[0] in SECRET_LOOKUPS:
            return False
        return super().lookup_allowed(lookup, value, request)

    def get_fields(self, request, obj=None):
        # Never the seed: only the revealed one, once the match has ended.
        # The engine state (it holds every hand) likewise only once it is over.
        if obj is not None and obj.is_over:
            return (*MATCH_FIELDS, "revealed_seed", "state")
        return MATCH_FIELDS

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    @admin.display(description=gettext_lazy("players"))
    def players(self, obj):
        return ", ".join(s.display_name for s in obj.seats.all())

    @admin.display(description=gettext_lazy("void"), boolean=True)
    def voided(self, obj):
        return bool(obj.rating_voids.all()) if obj.rated else None


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "match", "before", "after", "delta", "created")
    list_filter = (KIND_FILTER, "created")
    search_fields = ("user__username", "match__public_id")
    list_select_related = ("user", "match")


@admin.register(RatingVoid)
class RatingVoidAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "match", "delta", "rating_before", "rating_after",
                    "games_after", "peak_after", "voided_by", "created_at")
    list_filter = (KIND_FILTER, "created_at")
    search_fields = ("user__username", "match__public_id")
    list_select_related = ("user", "match", "voided_by")
