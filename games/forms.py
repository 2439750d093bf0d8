from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import sites, themes
from games.models import ComputerLevel, ComputerSpeed


class SoloMatchForm(forms.Form):
    """A match against computer players: the user takes seat 0."""

    kind = forms.ChoiceField(label=gettext_lazy("Game"), choices=sites.choices)
    players = forms.TypedChoiceField(
        label=gettext_lazy("Players"), choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int, initial=4
    )
    level_1 = forms.ChoiceField(label=gettext_lazy("Computer in seat 2"), choices=ComputerLevel.choices,
                                initial=ComputerLevel.NORMAL)
    level_2 = forms.ChoiceField(label=gettext_lazy("Computer in seat 3 (3–4 players)"),
                                choices=ComputerLevel.choices,
                                initial=ComputerLevel.NORMAL)
    level_3 = forms.ChoiceField(label=gettext_lazy("Computer in seat 4 (4 players)"),
                                choices=ComputerLevel.choices,
                                initial=ComputerLevel.NORMAL)
    speed = forms.ChoiceField(label=gettext_lazy("Computer speed"), choices=ComputerSpeed.choices,
                              initial=ComputerSpeed.NORMAL,
                              help_text=gettext_lazy("Only how long the computers wait before moving."))
    theme = forms.ChoiceField(label=gettext_lazy("Board"), choices=themes.choices, initial=themes.PLAIN,
                              required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["theme"].help_text = themes.help_text()

    def clean_theme(self):
        return self.cleaned_data.get("theme") or themes.PLAIN

    def clean(self):
        data = super().clean()
        kind, theme = data.get("kind"), data.get("theme")
        if kind and theme:
            try:
                themes.check(theme, kind)
            except ValueError:
                self.add_error("theme", _("%(theme)s is not a board theme for %(game)s.")
                               % {"theme": repr(theme), "game": sites.get_site(kind).name})
        return data

    def computer_levels(self) -> list[str]:
        n = self.cleaned_data["players"]
        return [self.cleaned_data[f"level_{i}"] for i in range(1, n)]
