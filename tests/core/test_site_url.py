"""SITE_URL, the origin of the links in mails (core/site_url.py): given, or
made from DEBUG and ALLOWED_HOSTS; anything but an origin is refused by name."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from core.site_url import absolute, default_site_url, parse_site_url


def test_an_origin_is_kept_without_its_trailing_slash():
    assert parse_site_url("https://parlour.example/") == "https://parlour.example"
    assert parse_site_url("http://127.0.0.1:8000") == "http://127.0.0.1:8000"
    assert absolute("https://parlour.example", "/m/abc/") == "https://parlour.example/m/abc/"


@pytest.mark.parametrize("bad", ["parlour.example", "ftp://parlour.example", "https://parlour.example/play",
                                 "https://user:pw@parlour.example", "https://parlour.example:99999", ""])
def test_anything_but_an_origin_is_refused_by_name(bad):
    with pytest.raises(ImproperlyConfigured, match="SITE_URL"):
        parse_site_url(bad)


def test_the_default_comes_from_debug_or_the_first_allowed_host():
    assert default_site_url(True, [], 8001) == "http://localhost:8001"
    assert default_site_url(False, [".parlour.example", "www.parlour.example"], 8000) == "https://parlour.example"
    with pytest.raises(ImproperlyConfigured, match="set SITE_URL"):
        default_site_url(False, ["*"], 8000)
    with pytest.raises(ValueError):
        absolute("https://parlour.example", "//evil.example/")
