"""The create-a-room form (the Ludo rule text "Game settings and rooms"; docs/rules.md
"Common": the options rooms may change). ``matchmaking.rooms`` checks the
settings again; this form only turns the post into them."""

from django import forms

from games import themes
from games.errors import Refused
from games.models import ComputerLevel, GameKind
from matchmaking import rooms

SEAT_CHOICES = [("", "A friend (invite)")] + list(ComputerLevel.choices)


class RoomForm(forms.Form):
    kind = forms.ChoiceField(label="Game", choices=GameKind.playable)
    seats = forms.TypedChoiceField(label="Seats", choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int,
                                   initial=4)
    seat_2 = forms.ChoiceField(label="Seat 2", choices=SEAT_CHOICES, required=False)
    seat_3 = forms.ChoiceField(label="Seat 3 (3–4 seats)", choices=SEAT_CHOICES, required=False)
    seat_4 = forms.ChoiceField(label="Seat 4 (4 seats)", choices=SEAT_CHOICES, required=False,
                               help_text="You take seat 1. Computer seats can be changed in the lobby.")
    turn_seconds = forms.TypedChoiceField(
        label="Turn time (Roundabout and Rondo)", coerce=int, initial=60,
        choices=[(s, f"{s} seconds") for s in rooms.TURN_SECONDS_CHOICES],
        help_text="Ludo always gives 60 seconds.")
    idle_limit = forms.TypedChoiceField(
        label="Missed turns in a row that count as leaving", coerce=int, initial=3,
        choices=[(n, str(n)) for n in rooms.IDLE_LIMIT_CHOICES])
    autoplay_forced = forms.BooleanField(label="Ludo: play a forced move automatically", required=False,
                                         initial=True)
    side = forms.ChoiceField(label="Rondo: board side", choices=[("blue", "Blue"), ("red", "Red")],
                             initial="blue")
    one_change = forms.BooleanField(label="Rondo: one-change chain rule", required=False, initial=True)
    theme = forms.ChoiceField(label="Board", choices=themes.choices, initial=themes.PLAIN,
                              help_text="Map backdrops are for Ludo; the board's rules never change.")

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        kind = data["kind"]
        options = {}
        if kind == "ludo":
            options = {"autoplay_forced": data["autoplay_forced"]}
        elif kind == "rondo":
            options = {"side": data["side"], "one_change": data["one_change"]}
        computers = {i - 1: data[f"seat_{i}"] for i in range(2, data["seats"] + 1) if data[f"seat_{i}"]}
        try:
            self.room_settings = rooms.check_room_settings(
                kind, data["seats"], computers, turn_seconds=data["turn_seconds"],
                idle_limit=data["idle_limit"], options=options, theme=data["theme"])
        except Refused as e:
            raise forms.ValidationError(e.message) from None
        return data
