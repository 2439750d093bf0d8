"""The search by name: a prefix, any case, active accounts only, a page at a
time; bad input (empty, too long, wildcards) gets a clear answer and runs no
query or a range; the index serves it (PostgreSQL and SQLite)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from people import search as people_search
from people.search import MAX_QUERY, PAGE, search, successor
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def names(response) -> list[str]:
    return response.context["results"].names


def test_a_prefix_in_any_case_finds_active_names_in_order(client):
    for n in ("Alba", "alberto", "ALBUS", "Al", "Bob", "xalb"):
        make_user(n)
    closed = make_user("Albion")
    User.objects.filter(pk=closed.pk).update(is_active=False)
    response = client.get("/people/", {"q": "aLb"})
    assert response.status_code == 200
    assert names(response) == ["Alba", "alberto", "ALBUS"]
    assert "Albion" not in response.content.decode()
    assert names(client.get("/people/", {"q": "  al  "})) == ["Al", "Alba", "alberto", "ALBUS"]
    assert names(client.get("/people/", {"q": "albx"})) == []
    assert "No player's name starts with" in client.get("/people/", {"q": "albx"}).content.decode()


def test_pages_follow_one_another_without_offsets(client):
    User.objects.bulk_create(User(username=f"pager{i:03}", email=f"pager{i}@example.com", password="!")
                            for i in range(PAGE * 2 + 3))
    seen, after = [], ""
    for _ in range(3):
        response = client.get("/people/", {"q": "PAGER", "after": after})
        page = response.context["results"]
        seen += page.names
        after = page.next_after
        if after is None:
            break
        assert f"after={after}" in response.content.decode()  # the "More names" link
    assert seen == [f"pager{i:03}" for i in range(PAGE * 2 + 3)]
    assert after is None


def test_wildcards_are_letters(client):
    """A name may hold "_" (never "%" or a backslash): LIKE's wildcards match only themselves."""
    for n in ("a_b", "axb", "aab", "a.b"):
        make_user(n)
    assert names(client.get("/people/", {"q": "a_"})) == ["a_b"]
    for q in ("a%", "%", "_", "a\\", "\\", "%%%%", "a[b]", "*"):
        response = client.get("/people/", {"q": q})
        assert response.status_code == 200 and names(response) == [], q


def test_empty_and_huge_queries_are_refused_without_a_query(client):
    make_user("anyone")
    with CaptureQueriesContext(connection) as queries:
        empty = client.get("/people/", {"q": "   "})
        huge = client.get("/people/", {"q": "a" * 100_000})
        nul = client.get("/people/", {"q": "a\x00b"})
    assert (empty.status_code, huge.status_code, nul.status_code) == (400, 400, 400)
    assert "Type the start of a player&#x27;s name." in empty.content.decode()
    assert f"A name is at most {MAX_QUERY} characters" in huge.content.decode()
    assert "results" not in empty.context and "results" not in huge.context
    assert not [q for q in queries.captured_queries if "accounts_user" in q["sql"]]
    bare = client.get("/people/")
    assert bare.status_code == 200 and "results" not in bare.context


def test_a_query_of_the_longest_length_and_odd_characters_answers():
    make_user("z" * MAX_QUERY)
    assert search("Z" * MAX_QUERY).names == ["z" * MAX_QUERY]
    assert search("\U0010ffff").names == []
    assert search("\ud7ff").names == []  # its successor skips the surrogates
    assert successor("ab") == "ac" and successor("a\U0010ffff") == "b" and successor("\U0010ffff") is None


def test_the_index_serves_the_search():
    make_user("indexed")
    with CaptureQueriesContext(connection) as captured:
        search("ind")
    sql = captured.captured_queries[-1]["sql"]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Off, a plan that cannot use the index still scans the table: its
            # choice shows the index serves the range and the order.
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute(f"EXPLAIN {sql}")
            plan = "\n".join(r[0] for r in cursor.fetchall())
            assert "Index Scan using people_user_username_prefix" in plan, plan
            assert "Sort" not in plan, plan
        else:
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
            plan = "\n".join(str(r[-1]) for r in cursor.fetchall())
            assert "USING INDEX user_username_ci_unique" in plan, plan
            assert "TEMP B-TREE" not in plan, plan
    assert people_search.name_key() is not None
