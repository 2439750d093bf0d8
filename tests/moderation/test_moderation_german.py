"""Moderation in German (docs/i18n.md): the report page, the reports on a
profile, and an admin action's reason page and its result, counted in words."""

import pytest

from accounts.models import User
from tests.factories import ludo_state, make_match

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_effects")]

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}


def test_report_page_and_profile_section_in_german(client):
    match = make_match(seats=("human", "human"), state=ludo_state(2))
    me, other = [s.user for s in match.seats.select_related("user").order_by("index")]
    client.force_login(me)
    page = client.get(f"/m/{match.public_id}/report/?seat=1", **GERMAN).content.decode()
    assert "<title>Einen Spieler melden" in page and "Wähle einen Grund …" in page
    assert "Beleidigender oder anstößiger Chat" in page and "Meldung senden" in page
    refused = client.post(f"/m/{match.public_id}/report/", {"seat": "1", "reason": "", "note": ""}, **GERMAN)
    assert refused.status_code == 400 and "Wähle einen Grund aus der Liste." in refused.content.decode()
    client.post(f"/m/{match.public_id}/report/", {"seat": "1", "reason": "cheating", "note": ""}, **GERMAN)
    profile = client.get(f"/u/{me.username}/", **GERMAN).content.decode()
    assert "Deine Meldungen" in profile and "Betrug oder Absprache" in profile and ">Offen</td>" in profile


def test_an_admin_action_in_german(mod_client):
    user = User.objects.create_user("ann", "ann@example.com", "a sturdy pass 42")
    data = {"action": "unban_users", "_selected_action": [user.pk]}
    page = mod_client.post("/admin/accounts/user/", data, **GERMAN).content.decode()
    assert "1 ausgewählt" in page and "Pflichtfeld. Wird im Prüfprotokoll aufbewahrt." in page
    assert 'value="Sperre aufheben"' in page and ">Abbrechen</a>" in page
    done = mod_client.post("/admin/accounts/user/", {**data, "apply": "1", "reason": "x"},
                           follow=True, **GERMAN)
    done = done.content.decode()
    assert "Ann: ann ist nicht gesperrt." in done  # the refusal, in the moderator's language
