"""The create-a-room form (the Ludo rule text "Game settings and rooms"; docs/rules.md
"Common": the options rooms may change). ``matchmaking.rooms.actions`` checks the
settings again; this form only turns the post into them."""

import copy

from django import forms
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from core.errors import Refused
from games import sites, themes
from games.models import ComputerLevel
from matchmaking import together
from matchmaking.rooms import actions

SEAT_CHOICES = [("", gettext_lazy("A friend (invite)"))] + list(ComputerLevel.choices)


class RoomForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("Game"), choices=sites.choices)
    seats = forms.TypedChoiceField(label=gettext_lazy("Seats"), choices=[(2, "2"), (3, "3"), (4, "4")],
                                   coerce=int, initial=4)
    seat_2 = forms.ChoiceField(label=gettext_lazy("Seat 2"), choices=SEAT_CHOICES, required=False)
    seat_3 = forms.ChoiceField(label=gettext_lazy("Seat 3 (3–4 seats)"), choices=SEAT_CHOICES,
                               required=False)
    seat_4 = forms.ChoiceField(
        label=gettext_lazy("Seat 4 (4 seats)"), choices=SEAT_CHOICES, required=False,
        help_text=gettext_lazy("You take seat 1. Computer seats can be changed in the lobby."))
    turn_seconds = forms.TypedChoiceField(
        label=gettext_lazy("Time per decision"), coerce=int, initial=60,
        choices=together.time_control_choices)
    idle_limit = forms.TypedChoiceField(
        label=gettext_lazy("Missed turns in a row that count as leaving"), coerce=int, initial=3,
        choices=[(n, str(n)) for n in actions.IDLE_LIMIT_CHOICES])
    # Then each registered game's room options (GameSite.room_options), added by __init__.
    theme = forms.ChoiceField(label=pgettext_lazy("game board", "Board"), choices=themes.choices,
                              initial=themes.PLAIN)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        theme = self.fields.pop("theme")
        for kind in sites.kinds():
            for name, field in sites.get_site(kind).room_options.items():
                if name in self.fields:
                    raise ImproperlyConfigured(f"game {kind!r}: the room form already has a field {name!r}")
                self.fields[name] = copy.deepcopy(field)
        self.fields["theme"] = theme
        theme.help_text = themes.help_text()
        chosen = [sites.get_site(k) for k in sites.kinds()]
        self.fields["turn_seconds"].help_text = " ".join([
            _(together.TIME_CONTROL_HELP),
            *(_("A live %(game)s match always gives %(seconds)s seconds.")
              % {"game": s.name, "seconds": s.fixed_turn_seconds} for s in chosen
              if s.fixed_turn_seconds is not None)])

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        kind = data["kind"]
        options = {name: data[name] for name in sites.get_site(kind).room_options}
        computers = {i - 1: data[f"seat_{i}"] for i in range(2, data["seats"] + 1) if data[f"seat_{i}"]}
        try:
            self.room_settings = actions.check_room_settings(
                kind, data["seats"], computers, turn_seconds=data["turn_seconds"],
                idle_limit=data["idle_limit"], options=options, theme=data["theme"])
        except Refused as e:
            raise forms.ValidationError(e.message) from None
        return data
