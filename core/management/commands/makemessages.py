"""``makemessages`` as the project runs it (docs/i18n.md): no fuzzy matching
(a guessed translation of a new message is worse than none: the completeness
test names the missing one), unwrapped lines (smaller diffs), and the folders
that hold no site text left out.

``make messages`` runs it from the project's folder for both domains. A
folder with a ``locale`` folder of its own keeps its own catalogue (Django
walks to the nearest one): each game folder's strings go to
``games/<game>/locale``, so a new game brings its own; the rest go to
``locale/`` (settings.LOCALE_PATHS).
"""

from django.core.management.commands import makemessages

#: Folders with no text a person reads on the site (tests and benchmarks
#: check texts, they do not show them).
IGNORED = [
    ".venv", "node_modules", "var", "tests", "benchmarks", "deploy", "static/vendor",
    "requirements", "scripts", "docs", "*/migrations",
]


class Command(makemessages.Command):
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching", "--no-wrap"]
    xgettext_options = [*makemessages.Command.xgettext_options, "--no-wrap"]
    msguniq_options = [*makemessages.Command.msguniq_options, "--no-wrap"]
    msgattrib_options = [*makemessages.Command.msgattrib_options, "--no-wrap"]

    def handle(self, *args, **options):
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), *IGNORED]
        return super().handle(*args, **options)
