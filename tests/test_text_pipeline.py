"""The text pipeline (translator/text.py, service/texts.py): sentences, line breaks and whitespace kept,
placeholders, tags, URLs, e-mail addresses, code spans and characters outside the vocabulary protected — unit properties, then through the
real server (Translate, TranslateStream, TranslateBatch) over loopback gRPC."""

import html
import os
import random
import re
import string
from typing import Callable

import grpc
import pytest
import sentencex
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from service.client import TranslatorClient
from tests.grpc_server import RunningServer
from tests.test_server import config_for
from translator.markup import PLACEHOLDER_PATTERN, MovedTags, reduced
from translator.text import (EVERYTHING_AND_NUMBERS, FENCE_MAX_LINES, ITEM_HINT, ITEMS, NUMBER, ONE_REFERENCE,
                             SPLITTER_MAX_WINDOW, TAG, Metavariables, Prepared, codes_as_read, config_keys, copy_at_end,
                             dehyphenated, indented_program, paragraph_runs, prepare, protected_spans, read_codes,
                             rewrapped, sentences, unjustified, whole_words)
from translator.v1 import translator_pb2 as pb

SENTENCES = ["I went to the market yesterday.", "The apples were cheap.", "I bought five kilos.",
             "Where is the station?", "He crossed the street!", "Dr. Smith paid 3.50 euros for it."]


@pytest.mark.parametrize("text, expected", [
    ("Dr. Smith went to Washington. He arrived at 5 p.m. today.", 2),
    ("Use e.g. apples or pears. Then stop.", 2),
    ("It costs 3.50 euros. That is cheap.", 2),
    ('He said "Stop." Then he left.', 2),
    ("Mr. and Mrs. Jones live in the U.S. now. They like it.", 2),
    ("Is it? Yes. No!", 3),
    ("Loading… Please wait.", 2),  # "…" ends a sentence where "..." does: before a capital
    ("Open File… Save As… Quit", 3),
    ("I said… well, never mind.", 1),
    ("Copying files… please wait.", 1),
])
def test_segmentation_edge_cases(text, expected):
    assert len(prepare(text).segments) == expected
    assert "".join(sentences(text)) == text


@pytest.mark.parametrize("text, paths", [
    ("Error updating /etc/crypttab.", ["/etc/crypttab"]),
    ("Copy ~/.config/app/ and ../../lib or ./configure to C:\\Users\\Ann\\file.txt now", [
        "~/.config/app/", "../../lib", "./configure", "C:\\Users\\Ann\\file.txt"]),
    # a directory's name with spaces, where a backslash follows it; not "Files" after the last one
    ("Run C:\\Program Files\\App\\setup.exe or look in C:\\Program Files now", [
        "C:\\Program Files\\App\\setup.exe", "C:\\Program"]),
    # a word in parentheses too ("(x86)" came back after the verb), and a path from an environment variable
    ("Install to C:\\Program Files (x86)\\Steam or %APPDATA%\\My Company\\logs (or D:\\Games) now", [
        "%APPDATA%\\My Company\\logs", "C:\\Program Files (x86)\\Steam", "D:\\Games"]),
    ("and/or km/h TCP/IP 12/05/2024 [Gmail]/Drafts /Image/Mode wait.../etc", []),  # words, a date, menu paths
    # relative to a file with an extension ("docs/index.md" came back as "dadizierte d.md"); not words between slashes
    ("Edit docs/index.md and app/views/show.html.erb; cut/copy/paste, sb./sth.lightly.", [
        "app/views/show.html.erb", "docs/index.md"]),
    # placeholders inside, a shell's, printf's, Python's: "/usr/share/doc/${pkg}/README.Debian" (a debconf
    # template's) reached the model as "XX0X/README." and "Debian.", "${FB_VER}/SYSDBA.password" as "XX0X/SYSDBA" and
    # ".password"; not Windows' variable, which is an item of its own
    ("See /usr/share/doc/${pkg}/README.Debian, /etc/firebird/${FB_VER}/SYSDBA.password or /srv/%s/Main.conf.", [
        "/etc/firebird/${FB_VER}/SYSDBA.password", "/srv/%s/Main.conf", "/usr/share/doc/${pkg}/README.Debian"]),
    ("Open /var/%(name)s/{id}.db, ~/.%src or C:\\Users\\%USERNAME%\\App", [
        "/var/%(name)s/{id}.db", "C:\\Users\\", "~/.%src"]),
])
def test_file_paths_are_kept_as_written(text, paths):
    """Read, the model changed a path in 30 of the 66 held-out test messages that have one ("/etc/crypttab" came back
    as "/etc/cryptab"). A path from the root that starts with a capital is a menu path, which catalogs translate;
    a sentence's full stop after a path stays text."""
    assert [item for item in protected_items(text) if "/" in item or "\\" in item] == sorted(paths)


def test_file_and_host_names_are_kept_as_written_but_not_abbreviations():
    """Read, the model changed "climateprediction.net" to "Klimapredig.net", "named.deb" to "Namen als root.deb",
    "mastodon.social" to "mastodon.sozial" and "core.worktree" to "Kern.worktree"."""
    text = "Edit cc_config.xml, jquery.min.js or song.mp3 at climateprediction.net. E.g. v2.0, i.e. X.509 and ASP.NET."
    assert protected_items(text) == ["ASP.NET", "cc_config.xml", "climateprediction.net", "jquery.min.js", "song.mp3",
                                     "v2.0"]
    text = "Join mastodon.social or icosahedron.website; set core.worktree. It ends.Then a typo."
    assert protected_items(text) == ["core.worktree", "icosahedron.website", "mastodon.social"]
    # a C program's files and libraries ("read zlib.h" came back as "zlib gelesen haben.h"), not "a.m." nor "sb.'s"
    text = "Read zlib.h, main.c and libc.a, not fd.o; bend sb.s' ear at 5 a.m. or 6 p.m."
    assert protected_items(text) == ["fd.o", "libc.a", "main.c", "zlib.h"]
    # a configuration's directory ("policy-rc.d" came back as "Politikerc."); a manual page's name with its section
    text = "Ask policy-rc.d, edit rc.d and /etc/apt/sources.list.d, read update-rc.d(8) and sources.list(5). Do it."
    assert protected_items(text) == ["/etc/apt/sources.list.d", "policy-rc.d", "rc.d", "sources.list(5)",
                                     "update-rc.d(8)"]


def test_a_file_extension_alone_is_a_code_the_translation_must_hold_and_ends_no_sentence():
    """Read, the model lost or changed an extension ("Shell script (.sh)"), and the splitter ended a sentence inside
    ".tar.gz, .Z, .zip" (".Z" came back as "..Z"). Not a sentence's full stop, "...", a number's point."""
    text = "Files like .gz, .tar.gz, .Z or .zip (.eve) and CLI (.NET): convert .eot to .ttf. Wait... Next. It is .5 s."
    assert prepare(text).segments[0] == "Files like .gz, .tar.gz, .Z or .zip"
    assert prepare(text).segments[-3:] == ["Wait...", "Next.", "It is .5 s."]
    assert set(read_codes(text)) == {".gz", ".tar.gz", ".Z", ".zip", ".eve", ".NET", "NET", "CLI", ".eot", ".ttf"}
    assert ".NET" in prepare(text).segments  # not a word in capitals read sentence-cased (".NET" came back as ".NETZ")
    assert not prepare('CSS, ".desktop", ".diff" (Patch)').shouted[0]  # nor is a list of codes with one shouting


def test_words_with_a_capital_inside_are_kept_as_written_and_e_mail_addresses_stay_whole():
    """Read, the model changed "FreeBSD" to "FreieBSD" and "VirtualBox" to "VirtuelleBox". An e-mail address is one
    item, though its parts look like a file name ("john.doe") or such a word ("JohnDoe")."""
    text = "Run FreeBSD in VirtualBox on an iPhone; write to john.doe@example.com or JohnDoe@example.org. Hello World"
    assert protected_items(text) == ["FreeBSD", "JohnDoe@example.org", "VirtualBox", "iPhone", "john.doe@example.com"]
    # and after an acronym ("DHCPPrefixDelegation=" came back as "DHCPrefixDelegation=", "IPv4LL" as "IPv4L")
    assert protected_items("Set DHCPPrefixDelegation= for IPv4LL hosts, not for PDFs, URLs or NFSv4.") == [
        "DHCPPrefixDelegation", "IPv4LL"]


def test_a_users_handle_is_kept_as_written():
    """Read, "Thanks @maria for the fix!" came back as "Danke @Maria ..." (and "@domain" as "@Domain"). Not a
    capitalized word, which a program's marker may precede ("@Commands:", translated "@Befehle:"), nor an address's
    part or what "@" joins."""
    text = "Thanks @maria, @vl-nix and @JaneDoe; see @property. @Commands: mail jo@example.org, %s@%s, meet @ 5"
    assert protected_items(text) == ["%s", "%s", "@JaneDoe", "@maria", "@property", "@vl-nix", "jo@example.org"]


def test_a_templates_expressions_and_tags_are_kept_as_written():
    """Read, "{% if user %}Welcome back!{% endif %}" came back as "{%, wenn Benutzer %}Welcome zurückkommt!{% endif
    %}", and "{{ user.name }}" reached the model as "{{ XX0X }}". Mustache's, Handlebars', Angular's, i18next's and
    Jinja's expressions and tags are items; a format placeholder and ICU's syntax stay theirs."""
    text = "Hi {{ user.name }}, {{{raw}}} and {{count}} {%- if user %}x{% endif %} {name} {n, number}"
    assert protected_items(text) == sorted(["{{ user.name }}", "{{{raw}}}", "{{count}}", "{%- if user %}", "{% endif %}",
                                            "{name}"])
    # Hugo's shortcodes, braces inside too: '{{< style "img { height: 1.25rem; }" >}}' came back '{{< Stil "img { Höhe…'
    text = '{{< style "img { height: 1.25rem; }" >}} See {{< ref "install.md" >}}. {{% notice tip %}}Save.{{% /notice %}}'
    assert protected_items(text) == sorted(['{{< style "img { height: 1.25rem; }" >}}', '{{< ref "install.md" >}}',
                                            "{{% notice tip %}}", "{{% /notice %}}"])


def test_a_markdown_links_brackets_and_target_are_items_and_leave_the_sentence_as_tags_do():
    """Read, the model translated an anchor ("[Configuration](#configuration)" came back as
    "[Konfiguration](#Konfiguration)") and lost brackets ("[Navigation and UX](#navigation-and-ux)" came back as
    "[Navigation und U#navigation-and-ux)", "skip to the [documentation](/docs/)" as "überspringen /docs/."). A link's
    "[" (an image's "![") and its "](target)" are items, an element's tags where tags may leave the sentence; the
    link's text and its title are words, a title a text of its own."""
    text = 'See [Configuration](#configuration), ![A shot](images/main.png) or [a guide](https://example.org/a "Guide").'
    assert protected_items(text) == ["![", "[", "[", "](#configuration)", '](https://example.org/a "Guide")',
                                     "](images/main.png)"]
    prepared = prepare(text, take_out_tags=True)
    assert prepared.segments == ["See Configuration, A shot or a guide.", "Guide"]
    assert [(m.before, m.after, prepared.segments[0][m.start:m.end]) for m in prepared.moved[0]] == [
        (0, 1, "Configuration"), (2, 3, "A shot"), (4, 5, "a guide")]
    assert prepared.restore(["Siehe XX0XKonfigurationXX1X, XX2XEin BildXX3X oder XX4Xeine AnleitungXX5X.",
                             'Die „Anleitung"']) == ('Siehe [Konfiguration](#configuration), ![Ein Bild](images/main.png)'
                                                     ' oder [eine Anleitung](https://example.org/a "Die „Anleitung&quot;").')
    # a link's text that starts with a BBCode element's name is no BBCode tag; task list boxes and brackets that
    # close no link are text
    for linked, words in (("See the [table above](#table).", "See the table above."),
                          ("- [ ] [Check the pages](#pages).", "[ ] Check the pages."),
                          ("Press [Enter] to go on.", "Press [Enter] to go on.")):
        assert prepare(linked, take_out_tags=True).segments == [words], linked
    assert protected_items("[[BSv5] Row breaks #1466](https://example.org/1466)") == ["](https://example.org/1466)"]
    for kept in (prepare(text), prepare(text, html=True, take_out_tags=True)):
        assert "XX1X" in kept.segments[0] and not any(kept.moved), kept.segments


def test_a_link_whose_text_names_its_target_is_kept_as_written():
    """Read, the model translated a project's, a package's or a person's name in a link to it ("[chardet]" came back
    as "[Zeichensatz]", "[black]" as "[schwarz]", "[Clive Li]" as "[Liste trennen]"). A link whose text is its
    target's host or last path segment (case, separators and an extension aside) is one item, in Markdown,
    reStructuredText and HTML; words only where the target runs them together. A title's slug, a wiki's page, a
    generic host label, a link with a title and a relative target keep their words translated."""
    named = ("Use [black](https://github.com/psf/black), [Keybase](https://keybase.io), [Clive Li](https://github.com/"
             "cliveli), [rbenv](https://github.com/rbenv/rbenv.git), `requests <https://pypi.org/project/requests/>`_ "
             'and <a class="x" href="https://www.npmjs.com/package/remark-frontmatter">remark-frontmatter</a>.')
    prepared = prepare(named, take_out_tags=True)
    assert prepared.protected == ["[black](https://github.com/psf/black)", "[Keybase](https://keybase.io)",
                                  "[Clive Li](https://github.com/cliveli)",
                                  "[rbenv](https://github.com/rbenv/rbenv.git)",
                                  "`requests <https://pypi.org/project/requests/>`_",
                                  '<a class="x" href="https://www.npmjs.com/package/remark-frontmatter">'
                                  "remark-frontmatter</a>"]
    assert prepared.segments == ["Use XX0X, XX1X, XX2X, XX3X, XX4X and XX5X."]
    assert prepared.restore(["Verwende XX0X, XX1X, XX2X, XX3X, XX4X und XX5X."]) == named.replace(
        "Use", "Verwende").replace(" and <a", " und <a")
    # inside code it stays code, whole with it
    for code in ("```md\nSee [black](https://github.com/psf/black) here\n```",
                 "`[black](https://github.com/psf/black)`"):
        assert prepare(code, take_out_tags=True).protected == [code]
    for worded in ("[Common Build Problems](https://github.com/pyenv/pyenv/wiki/Common-build-problems)",
                   "[Getting Started](https://example.org/getting-started)",
                   "[escalade](https://en.wikipedia.org/wiki/Escalade)", "[docs](https://docs.example.org/x)",
                   '[black](https://github.com/psf/black "The formatter")', "[Configuration](configuration.md)",
                   "[Configuration](https://example.org/setup)"):
        words = worded[1:worded.index("]")]
        assert prepare(worded, take_out_tags=True).segments[0] == words, worded


def test_markdown_attribute_lists_alert_types_and_footnote_references_are_kept_as_written():
    """Read, "## Installation {#install}" came back as "{#installation}" (every link to the heading broke), "> [!NOTE]"
    as "[!NEIT]" (GitHub shows it as text), and a footnote's "[^1]" moved into a link's text. A format's braces and
    ICU's "{# file}" are none of them."""
    text = ("## v0.15.0 {#v0.15.0}\n\nA table {.td-initial .table-dark} and {: .note} or {#id .c key=\"v\"}.\n\n"
            "> [!NOTE]\n> Back up first.[^1]\n\n> [!tip]- Folded")
    assert protected_items(text) == sorted(["{#v0.15.0}", "{.td-initial .table-dark}", "{: .note}", '{#id .c key="v"}',
                                            "[!NOTE]", "[^1]", "[!tip]-", "##", "v0.15.0"])
    assert protected_items("Hi {name}, {n, plural, one {# file} other {# files}} {#}") == ["{name}"]
    # a link's end and a footnote end a run of 50 characters without a space as a space does (kept whole, the run's
    # words stayed English)
    linked = prepare("This release has only [minor breaking changes](#breaking-changes).[^explain-report-format]",
                     take_out_tags=True)
    assert linked.segments == ["This release has only minor breaking changes.XX0X"]


def test_admonition_types_and_mdx_statements_are_kept_as_written():
    """MkDocs' and Docusaurus' admonitions: "!!! note" came back as "!!! Notiz", ":::warning" as "::: Warnung", and
    "??? tip" lost its type; an MDX page's "import Tabs from '@theme/Tabs';" came back as "Reiter von
    '@theme/Tabs';". The type is kept, the title translated; a statement is code; prose that starts alike is text."""
    text = ('!!! note "Before you begin"\n    Back up your data.\n\n???+ tip inline end "Hint"\n    Save it.\n\n'
            ":::tip[Useful hint]\nRestart it.\n:::\n\n:::warning\nDo not delete it.\n:::\n\n"
            "import Tabs from '@theme/Tabs';\nimport './styles.css';\n\n"
            "export const Highlight = ({children}) => (<span>{children}</span>);")
    items = protected_items(text)
    assert items[:6] == ["!!! note", ":::", ":::", ":::tip", ":::warning", "???+ tip inline end"], items
    assert "import Tabs from '@theme/Tabs';" in items and "import './styles.css';" in items
    assert any(item.startswith("export const Highlight") for item in items)
    assert "Before you begin" in " ".join(prepare(text).segments)
    for prose in ("Import the data from the file.", "export default is fine", "Wow!!! note this"):
        assert protected_items(prose) == [], prose


def test_emoji_shortcodes_and_a_fence_indented_by_a_tab_are_kept_as_written():
    """MkDocs Material's icons (":fontawesome-brands-windows:") and GitHub's emoji (":tada:") came back translated or
    lost; a fence indented by a tab under a list item ("\t```bash") was no fence, and "wget https://..." came back as
    "https://... winden". A time, a path's "file:line:" and a label's colon are none."""
    assert protected_items('=== ":fontawesome-brands-windows: Windows"\nThanks :+1: and :tada:!') == [
        ":+1:", ":fontawesome-brands-windows:", ":tada:", "==="]
    assert protected_items("At 10:30:00 see file:line: or Usage: foo: bar") == []
    steps = "1. Fetch the script.\n\n\t```bash\n\twget https://example.org/setup.sh\n\t```\n\n1. Run it."
    assert prepare(steps).segments == ["Fetch the script.", "Run it."]


def test_tex_math_is_kept_as_written_and_prices_and_variables_are_not_math():
    """"$$\\sum_{i=1}^n x_i$$" came back as "$\\sum_{i=1}^n x_i$$", no longer math. Displayed and inline math are
    items, and so is a command or a script glued to words; "$5 or $10", "$HOME/$USER" and a shell's "$x" are no math
    (the variables are items of their own), nor is a number alone a price."""
    text = "The energy $E = mc^2$ and $$\\sum_{i=1}^n x_i$$, or \\(x\\) and \\[\ny = f(x)\n\\] here."
    assert protected_items(text) == sorted(["$E = mc^2$", "$$\\sum_{i=1}^n x_i$$", "\\(x\\)", "\\[\ny = f(x)\n\\]"])
    assert protected_items('It costs $5, or $10; echo "$x" and "$y" in $HOME/$USER.') == ["$HOME", "$USER", "$x", "$y"]
    assert "$var</b> or <b>$" not in protected_items("Syntax: <b>$var</b> or <b>${var}</b>")  # "or" was kept
    # nor the words between two of a shell's or a debconf template's "${name}" (they were one item, and came back in
    # English: "Die Einstellung für "${question}" is missing, but packages ...")
    assert prepare('The setting for "${question}" is missing: "${class_packages}".').protected == [
        '"${question}"', '"${class_packages}"']
    # A number alone in math is no price: a real paper's "in $54$ cohorts" came back as "in 54 $$-Kohorten"
    assert protected_items("Each of $4{,}685$ entities in $54$ cohorts.") == ["$4{,}685$", "$54$"]
    assert prepare("in $54$ cohorts").restore(["in XX0X Kohorten"]) == "in $54$ Kohorten"
    # Math glued to words, a command or a script alone: "coverage$\\times$accuracy" came back without its "$"s
    glued = "A coverage$\\times$accuracy score in m$^{2}$ of CO$_2$, Fellowship$^\\ddagger$, sub-$30$B."
    assert protected_items(glued) == ["$30$", "$\\times$", "$^\\ddagger$", "$^{2}$", "$_2$"]


def test_a_reference_links_label_and_its_definition_are_kept_as_written():
    """A document's reference links are matched by label: "See the [installation guide][install]." came back as
    "Siehe [Installationsführer][installation][installation]", the definition's "[install]:" as "[installation]:".
    A definition's title is words; a line that only starts like a definition is text."""
    text = ("See the [installation guide][install] or the [FAQ][].\n\n[install]: ./INSTALL.md 'The guide'\n"
            "[faq]: <https://example.org/faq>\n[1]: Smith, J. (2020). A book.")
    assert protected_items(text) == ["[", "[", "[faq]: <https://example.org/faq>", "[install]: ./INSTALL.md", "][]",
                                     "][install]"]
    # a colon after the reference is the sentence's ("[via MacPorts][portfile]: `sudo port install fzf`" came back as
    # "[via MacPorts][Portdatei]: ...", a link to no definition)
    assert protected_items("It is [via MacPorts][portfile]: `sudo port install fzf`") == [
        "MacPorts", "[", "][portfile]", "`sudo port install fzf`"]


def test_a_collapsed_reference_links_end_takes_its_label_and_a_link_around_code_stays_whole():
    """A collapsed reference's text is its label: "[encoding][]" came back as "[Kodierung][]", a link to no definition
    (897 with words on Node.js' API pages). Its end is written with the source's label, a full reference to the same
    definition; where its text has no words (code, a placeholder) or cannot be a label on one line, it stays "][]". A
    link around code alone is one item ("[`async_hooks`][]" came back as "[zu][] ... `async_hooks`")."""
    text = "See the [encoding][] and the [Permission Model][] or [%s][], [a\nwrapped][] and [`async_hooks`][]."
    for take_out_tags in (True, False):
        prepared = prepare(text, take_out_tags=take_out_tags)
        ends = [item for item in prepared.protected if item.startswith("][")]
        assert ends[:2] == ["][encoding]", "][Permission Model]"] and set(ends[2:]) == {"][]"}, take_out_tags
        assert "[`async_hooks`][]" in prepared.protected
    prepared = prepare("See the [encoding][] section.")
    assert prepared.restore(["Siehe den Abschnitt XX0XKodierungXX1X."]) == "Siehe den Abschnitt [Kodierung][encoding]."
    assert prepare("Use [`path.sep`](#pathsep) or [`x`](y 'Title').", take_out_tags=True).protected == [
        "[`path.sep`](#pathsep)", "[", "`x`", "](y 'Title')"]  # a title is translated the tags' way


def test_a_type_in_braces_is_kept_as_written():
    """Node.js' API pages and JSDoc write a parameter's type in braces: "{string|Buffer}" came back as
    "{Zeichenfolge|Buffer}". Types joined by "|", an array's, a generic's are items; words in braces are not."""
    text = "* `data` {string|Buffer|DataView} or {string\\[]}, {Array<string>}, {number | undefined}; {brotli options}."
    assert protected_items(text) == ["`data`", "{Array<string>}", "{number | undefined}", "{string\\[]}",
                                     "{string|Buffer|DataView}"]


def test_an_identifier_with_escaped_underscores_is_kept_as_written():
    """Markdown escapes an identifier's underscores ("total\\_heap\\_size"), and the model translated its words
    ("Gesamt\\_heap\\_size"); an escaped underscore beside no word is text."""
    text = "The total\\_heap\\_size in node\\_modules and ESM\\_FILE\\_FORMAT, not a\\_ or \\_b."
    assert protected_items(text) == ["ESM\\_FILE\\_FORMAT", "node\\_modules", "total\\_heap\\_size"]


def test_a_json_objects_keys_are_kept_as_written():
    """Read, the model translated them: '{"title": "Open file"}' came back as '{"Titel": ...}'."""
    assert protected_items('{"title": "Open file", "error.code" : 3}') == ['"error.code"', '"title"']


def test_environment_variables_are_kept_as_written_and_printf_conversions_stay_theirs():
    """Read, the model changed "%APPDATA%" to "%APDATA%" and lost a variable in small letters ("Hi $name," came back as
    "Hinname,"); one is an item with the path that goes on from it."""
    text = "Set %APPDATA%\\app, $HOME/bin or ${prefix}, not %d%% or %s%s or $5 or %A, for $name."
    assert protected_items(text) == ["$HOME/bin", "$name", "${prefix}", "%%", "%A", "%APPDATA%\\app", "%d", "%s", "%s"]
    # Windows' in small letters or mixed, whole ("%c", a conversion, took "%computername%" apart: "%cAngabe")
    assert protected_items("Set %computername%, %UserProfile%\\Desktop, not %lld%lld or %s%s.") == [
        "%UserProfile%\\Desktop", "%computername%", "%lld", "%lld", "%s", "%s"]
    # gettext's ISO C 99 conversions: their "%" was lost ("hash id %<PRIu32>" came back as "nicht unterstützt
    # <PRIu32>", which msgfmt --check-format refuses)
    assert protected_items("hash id %<PRIu32>, read %-8<PRIuMAX> of <b>") == ["%-8<PRIuMAX>", "%<PRIu32>", "<b>"]
    # Python's repr, not a word's start ("html_static_path entry %r does not exist" came back without it)
    assert protected_items("entry %r does not exist, nor %-5r; 50%rather") == ["%-5r", "%r"]
    # Qt's: %1, a localized %L1 and a plural message's count %n (not a word after "%": "100%nice" is text)
    assert protected_items("Copied %n file(s) of %L1 to %2, 100%nice.") == ["%2", "%L1", "%n"]
    # Apple's plural variables whole, not printf's "%#@" and a word ("%#@messages@" came back as "%#@Nachrichten@"),
    # and a String Catalog substitution's "%arg", not printf's "%a" before "rg"
    assert protected_items("You have %#@messages@ in %1$#@folders@ by %@.") == ["%#@messages@", "%1$#@folders@", "%@"]
    assert protected_items("%arg apples, %args, %a") == ["%a", "%a", "%arg"]
    # Python's named conversions with a length ("%(current)li" came back as "%(aktuell)li") and git's format atoms
    # ("%(upstream)" came back as "%(Upstream)"); not a name a letter follows, some program's own ("%(formatstr)D")
    assert protected_items("file %(current)li of %(total)d; from %(upstream:remotename) %(if), %(formatstr)D") == [
        "%(current)li", "%(if)", "%(total)d", "%(upstream:remotename)"]
    # LibreOffice's "%PRODUCTNAME" and "$(ARG1)", a Makefile's "$(srcdir)" ("$(ERR) loading ..." came back as "$(ER)
    # beim Laden ...", "Column %COLUMNNUMBER" as "Spalte %COLUMNUMBER"); not a word after "%" ("100%CPU" is text)
    assert protected_items("$(ERR) in %COLUMNNUMBER of %PRODUCTNAME's $(srcdir)/Makefile, 100%CPU") == [
        "$(ERR)", "$(srcdir)/Makefile", "%COLUMNNUMBER", "%PRODUCTNAME"]


def test_dotted_names_are_kept_whole_and_no_sentence_ends_inside_one():
    """Read, "org.gnome.OnlineAccounts" was cut after "org.gnome." and came back as "oderg.gnome gefunden
    werden.OnlineAccounts-Dienst"."""
    text = "Use the org.gnome.OnlineAccounts service or gi.repository.Gda, e.g. now, i.e. later, with v1.2 and a.b."
    assert protected_items(text) == ["gi.repository.Gda", "org.gnome.OnlineAccounts", "v1.2"]
    assert len(prepare(text).segments) == 1
    # later parts that are numbers: a key ("msg.0.5" came back as "msg.0,5"), a version ("git-1.5.6")
    assert protected_items("Key msg.0.5 or error.code.404 needs git-1.5.6, section 3.2.") == [
        "error.code.404", "git-1.5.6", "msg.0.5"]



def test_a_dotted_name_with_a_capital_or_an_underscore_after_its_dot_is_kept_whole():
    """A package's type or function, a namespace: the splitter ended a sentence at the dot, and the model translated
    the halves ("implements the io.Writer interface." came back as "implementiert denio.Arbeitsoberfläche."). Two
    sentences that a missing space joins stay apart, and initials, an abbreviation and a VDR message's context stay
    text."""
    text = "It implements io.Writer with time.Time, System.Xml.Linq and pytz.common_timezones; see README.Debian."
    assert protected_items(text) == ["README.Debian", "System.Xml.Linq", "io.Writer", "pytz.common_timezones",
                                     "time.Time"]
    assert len(prepare(text).segments) == 1
    assert prepare("Could not open the file.Please try again.").segments == ["Could not open the file.",
                                                                               "Please try again."]
    for text in ("Written by T.W. Lam for X.Org.", "She has a Ph.D. degree.", "Setup.OSD$Language",
                 "Saved as XX0X.vXX1X"):
        assert not any("." in item for item in protected_items(text)), text


def test_a_name_scoped_by_double_colons_is_kept_whole():
    """A Perl module, a C++ or Rust path: read, "use Module::Build::Tiny" came back as "Modul:Build::Zeit::Tiny".
    Not an IPv6 address (an item of its own), a reStructuredText literal block's "::" or a label's colons."""
    text = "Use Module::Build::Tiny, XML::Parser or std::io::Write; not fe80::1, Example:: or Note:: this."
    assert protected_items(text) == ["Module::Build::Tiny", "XML::Parser", "fe80::1", "std::io::Write"]


def test_dois_and_arxiv_identifiers_are_kept_as_written():
    """Read, a DOI's numbers were written as German decimals ("<doi:10.18637/jss.v005.i08>" came back as
    "<doi:10,18637/jss.v005.i08>"), and a bare arXiv identifier reached the model as a name and a number. A sentence's
    full stop after one stays text."""
    text = "See Ord (1975) <doi:10.1080/01621459.1975.10480272>, DOI: 10.1000/182 and arXiv:1805.01407v2."
    assert protected_items(text) == ["<doi:10.1080/01621459.1975.10480272>", "DOI: 10.1000/182", "arXiv:1805.01407v2"]
    # in angle brackets, the brackets go with it: around the item alone the model dropped them
    text = "Models <doi:10.1002/sim.6016>, <https://example.org/a> and <URL:http://example.org/>; not <http://a.b c>."
    assert protected_items(text) == ["<URL:http://example.org/>", "<doi:10.1002/sim.6016>", "<https://example.org/a>",
                                     "http://a.b"]


def test_a_command_line_before_a_shell_comment_is_code_and_its_comment_text():
    """A help text's examples: "  tar -cf archive.tar foo bar  # Create archive.tar from files foo and bar." came
    back as "Tar -cf archive.tar-Schrift-Schrift  # ...". Not a sentence with an option and a "#" in it."""
    text = "Examples:\n  tar -cf archive.tar foo bar  # Create it from foo and bar.\n  tar -xf archive.tar  # Extract."
    prepared = prepare(text)
    assert prepared.segments == ["Examples:", "# Create it from foo and bar.", "# Extract."]
    assert prepared.restore(["Beispiele:", "# Aus foo und bar erstellen.", "# Entpacken."]) == (
        "Beispiele:\n  tar -cf archive.tar foo bar  # Aus foo und bar erstellen.\n  tar -xf archive.tar  # Entpacken.")
    assert prepare("Use the -v option # twice").segments == ["Use the XX0X option # twice"]


def test_options_of_one_dash_are_kept_as_written():
    """Read, "-shared" came back as "-shart", find's "-empty" as "-fety" and "chown -hR root" as "chown -hR-Wurzel".
    Not a word a dash joins, nor a suffix that a dictionary lists alone."""
    text = "Use -m mod, chown -hR root, gcc [-shared] or find -empty|-prune; an e-mail, a 3'-end."
    assert protected_items(text) == ["-empty", "-hR", "-m", "-prune", "-shared"]
    assert protected_items("-based") == []


def test_a_version_after_a_v_is_kept_as_written():
    """No training pair has one, and the model changed it in 29 of 114 lines of Node.js' changelogs and manuals with
    one: "v11.0.0" came back as "v11.0,0", "v16.17.1" as "v16.17.17.17", "v0.11" as "v0.111". A sentence's full stop
    stays out; a word that ends in "v" and digits is none (but a name of small letters and digits, with its version)."""
    text = "Added in v0.1.25. Use v16.x, v1.0.1t or v1.3.0-beta.1, not kv1.2 or dev1.2 or v1."
    assert protected_items(text) == ["dev1.2", "kv1.2", "v0.1.25", "v1.0.1t", "v1.3.0-beta.1", "v16.x"]
    assert len(prepare(text).segments) == 2


def test_pre_releases_cve_identifiers_and_component_bug_numbers_are_kept_as_written():
    """The NEWS files and changelogs installed here: "1.5.5beta06" came back as "1,5.5beta06", "([CVE-2014-3470])" as
    "([Abschnitt 2014-3470)", GCC's "PR target/44862" as "PR-Ziel/4862", "0.11.x" as "0.1.x". Not an amount ("1.5b
    dollars") or a unit ("2.5mm"), nor a word and a short number ("year/100")."""
    text = ("Version 1.5.5beta06 fixes CVE-2014-3470 (PR target/44862); 2.0.1rc2, 1.6.0-rc2, 3.13.0a1, 1.0.1t, 2.x "
            "and 0.11.x too, not 1.5b dollars, 2.5mm, year/100, 5a1 or CVE-14-1.")
    assert protected_items(text) == ["0.11.x", "1.0.1t", "1.5.5beta06", "1.6.0-rc2", "2.0.1rc2", "2.x", "3.13.0a1",
                                     "CVE-2014-3470", "PR target/44862"]


def test_names_a_program_reads_in_web_and_cloud_documentation_are_kept_as_written():
    """Read, "application/x-www-form-urlencoded" came back as "Anwendung/...", "Content-Type" as "Inhalts-Type",
    "urn:ietf:params:..." as "Urn:...", "arn:aws:iam::1:user/a" lost a colon, "@angular/core" as "@angular/Kanal",
    "404 Not Found" as "404 nicht", and a path's query, an image's host and a pre-release's full stop were cut apart
    from it. Not a type's words alone ("audio/video"), a header's word value, nor a sentence's full stop."""
    text = ("Send Content-Type: application/json; charset=utf-8 or multipart/form-data to GET /api/v2/users?id=42&s=a "
            "for 404 Not Found; pull ghcr.io/owner/app:latest, go get github.com/spf13/cobra@latest, add @types/node "
            "and read urn:ietf:params:oauth:grant-type:jwt-bearer in arn:aws:iam::123456789012:user/alice, version "
            "2.3.1-beta.2. Set X-Request-ID and User-Agent: the name, not audio/video.")
    assert protected_items(text) == [
        "/api/v2/users?id=42&s=a", "2.3.1-beta.2", "404 Not Found", "@types/node",
        "Content-Type: application/json; charset=utf-8", "User-Agent", "X-Request-ID",
        "arn:aws:iam::123456789012:user/alice", "ghcr.io/owner/app:latest", "github.com/spf13/cobra@latest",
        "multipart/form-data", "urn:ietf:params:oauth:grant-type:jwt-bearer"]
    assert prepare(text).segments[-1] == "Set XX0X and XX1X: the name, not audio/video."


def test_a_changelog_entrys_component_in_brackets_is_kept_as_written():
    """"- [COLRv1] Update to latest draft" came back as "- [Adresse in letzter Entwurf", "[Docs] Better" as "[Dokument":
    at a list item's start a bracketed name is the component the entry is about. Not a task list's box, a link or
    brackets inside a sentence; the item's hanging lines still wrap its sentence."""
    entry = prepare("- [subset/instancer] Fixed AttributeError when\n  instantiating a VF.\n  * [Docs] Better docs.")
    assert entry.segments == ["XX0X Fixed XX1X when\n  instantiating a VF.", "XX0X Better docs."]
    assert entry.protected == ["[subset/instancer]", "AttributeError", "[Docs]"]
    for text in ("- [x] Done", "- [ ] Todo", "- [Docs](https://example.org) are here", "See [Docs] for more."):
        assert not any(re.fullmatch(r"\[[^\[\]]*\]", item) for item in prepare(text).protected), text


def test_function_calls_are_kept_as_written():
    """Read, the model changed "isnull()" to "istnull()" and "exists()" to "existen()"; "item(s)" is a word."""
    text = "obsolete function isnull(): please use !exists() or Gtk::Widget::show() for item(s)"
    assert protected_items(text) == ["Gtk::Widget::show()", "exists()", "isnull()"]


def test_calls_with_names_for_arguments_are_kept_as_written():
    """A docstring's calls: read, "splitdrive(p)" came back as "Teildrive(p)", "process_request(request,
    client_address)" as "process_request(erfragen, client_address)". A call of a name in small letters or CamelCase
    with names, numbers or strings without spaces for arguments, by keyword or not, is one item, and so is a keyword
    set to True, False or None; not a label ("Length(m)", "log(Size)"), a spreadsheet's function
    ("HOUR(time)"), a plural ("file(s)"), a word's key letter ("do(n)'t"), a placeholder's argument, nor a call whose
    arguments do not end."""
    text = ("Call splitdrive(p), os.path.join(dirpath, name) or NewType(name, tp) with type(None) and "
            "suppress(FileNotFoundError), isinstance(x, T), range(10), tokenize(f.readline), str(object=''), "
            "open(name, 'rb') and field(init=False), verbose=False.")
    assert protected_items(text) == sorted(["splitdrive(p)", "os.path.join(dirpath, name)", "NewType(name, tp)",
                                            "type(None)", "suppress(FileNotFoundError)", "isinstance(x, T)",
                                            "range(10)", "tokenize(f.readline)", "str(object='')",
                                            "open(name, 'rb')", "field(init=False)", "verbose=False"])
    for prose in ("Length(m)", "log(Size)", "p(LR)", "HOUR(time)", "Remove(%s)", "The file(s) went.", "or do(n)'t sort",
                  "ne(w) count", "chdir(%s)", "sum(a, ", "sum(a, )", "x(a.)", 'say("hello world")', "f(a=)"):
        assert not any("(" in item for item in protected_items(prose)), prose


def test_escape_sequences_are_kept_as_written_with_their_quotes():
    """Read, "change newline '\\n' into" came back with "\\n" unquoted. A run of escape sequences is one item, and its
    quotes stay with it; not a word's backslash, a Windows path's, nor a UNC path's "\\\\"."""
    assert prepare("Change newline '\\n' or '\\r\\n' into \\t, \\x1b or \\u2192.").protected == [
        "'\\n'", "'\\r\\n'", "\\t", "\\x1b", "\\u2192"]
    for text in ("C:\\Users\\name and \\\\server\\share", "a\\nb", "\\newline"):
        assert not any(item.startswith("\\n") or item.startswith("\\\\") for item in prepare(text).protected), text


def test_a_manual_pages_font_spans_are_kept_as_written():
    """roff's bold and italic mark what is typed and its placeholders: read, "\\fB\\-\\-sort\\fR" came back as
    "\\fB\\-sort\\fR", "\\fIfile\\fP" changed. A span from a font other than roman back to roman (or the previous
    font) is one item; not across a line, nor one never ended."""
    text = "If none of \\fB\\-\\-sort\\fR nor \\f5gcloud beta\\fR is set, read \\fIfile\\fP and \\f(CWx\\f[]."
    assert protected_items(text) == sorted(["\\fB\\-\\-sort\\fR", "\\f5gcloud beta\\fR", "\\fIfile\\fP",
                                            "\\f(CWx\\f[]"])
    assert not any("\\f" in item for item in protected_items("A \\fBbold\nline\\fR and \\fBnever ended"))


def test_a_manual_pages_strings_are_kept_as_written():
    """A page's strings, which it defines: read, mawk's "\\*(ex" came back as "\\*(er", a string it never defined. One
    named by two characters or in brackets is an item; Markdown's escaped asterisk before a letter or a space is
    none."""
    assert protected_items("Each \\*(ex is \\*(C`quoted\\*(C', see \\*[version] and \\*(``real\\*(''.") == sorted([
        "\\*(ex", "\\*(C`", "\\*(C'", "\\*[version]", "\\*(``", "\\*(''"])
    assert protected_items("It is \\*not\\* (a) \\*( a) here.") == []


def test_a_name_with_two_underscores_on_either_side_is_kept_as_written():
    """Read, "__path__" came back as "__paths__", "__doc__" as "__Dokument__". The name is one item; a file's name or
    a call it starts is the item ("__init__.py", "__init__(self, x)"); a word Markdown emphasizes so is read."""
    assert protected_items("See the __doc__ and __VA_ARGS__ of __init_subclass__.") == [
        "__VA_ARGS__", "__doc__", "__init_subclass__"]
    assert protected_items("Edit __init__.py and call __init__(self, x).") == ["__init__(self, x)", "__init__.py"]
    assert protected_items("__ alone, __half or half__init") == []
    assert protected_items("__Zstandard__ is __not__ slow") == []  # Markdown's strong emphasis


def test_a_name_that_qualifies_a_noun_is_joined_to_it_by_a_hyphen():
    """German writes "PipeWire-Filter" and "pg_hba.conf-Eintrag"; reading the name as a token, the model wrote a space.
    Only where the translation has a capitalized word after the name, and the source a word in small letters or a
    capitalized one the translation does not keep ("HandBrake Presets"; not "FreeBSD Foundation")."""
    prepared = prepare("Audio effects for PipeWire applications.\nSupports FreeBSD\nno pg_hba.conf entry\n"
                       "HandBrake Presets\nFreeBSD Foundation\nA Bézier curve")
    translated = ["Audio-Effekte für XX0X Anwendungen.", "Unterstützt XX0X", "Kein XX0X Eintrag", "XX0X Voreinstellungen",
                  "XX0X Foundation", "Eine XX0X Kurve"]
    assert prepared.restore(translated) == ("Audio-Effekte für PipeWire-Anwendungen.\nUnterstützt FreeBSD\n"
                                            "Kein pg_hba.conf-Eintrag\nHandBrake-Voreinstellungen\nFreeBSD Foundation\n"
                                            "Eine Bézier-Kurve")
    # the polite pronoun is no noun ("In Drascula you play" came back as "In Drascula-Sie spielen")
    assert prepare("In Drascula you play a role.").restore(["In XX0X Sie spielen eine Rolle."]) == \
        "In Drascula Sie spielen eine Rolle."
    assert prepare("Open %s files").restore(["XX0X Dateien öffnen"]) == "%s Dateien öffnen"  # a placeholder: no name
    assert prepare("Open %s Files").restore(["XX0X Dateien öffnen"]) == "%s Dateien öffnen"


def test_a_name_of_words_joined_by_n_is_kept_as_written():
    """Read, the model broke "D'n'D" ("... before D'n'D is triggered?" came back as "... bevor D ausgelöst wird?") and
    "Drag'n'Drop" ("&Drag'Drop"); German writes them alike and joins them to a noun. Not words in small letters, often
    a verb ("drag'n'drop files"), nor "Drag'n'drop" where a sentence starts."""
    prepared = prepare("Enable D'n'D support and Plug’n’Play.")
    assert prepared.segments == ["Enable XX0X support and XX1X."]
    assert prepared.restore(["XX0X Unterstützung und XX1X aktivieren."]) == (
        "D'n'D-Unterstützung und Plug’n’Play aktivieren.")
    for text in ("You can drag'n'drop files.", "Drag'n'drop is off.", "Rock'n'roll", "Don't rock'n roll"):
        assert prepare(text).protected == [], text
    # beside a date, the date comes back as German writes it, as beside any name
    for text, german in {"Reply to D'Souza before Friday.": "Reply to D'Souza vor Freitag.",
                         "Call D'n'D on Friday": "Call D'n'D am Freitag"}.items():
        prepared = prepare(text)
        assert prepared.restore(prepared.segments) == german, text



def test_each_string_value_of_a_json_object_is_translated_alone():
    """Read with the keys' tokens and the quotes, values came back worse than alone ('{"save": "Save", "open": "Open
    file"}' came back as '{"save": "Speicher", "open": "Open Datei"}'; 450 held-out catalog messages written as JSON
    values: chrF 61.96 -> 69.63; 200 arrays of them after a key: 53.18 -> 62.43). Escaped quotes stay in their
    value; where the vocabulary lacks '"' and a mark is one item with a placeholder beside it ('"%s'), the token stays
    in the value. Not without a JSON key, nor with the placeholders off (the keys are text then)."""
    text = r'{"save": "Save", "open": "Open %s files", "n": 3, "t": "Say \"hi\" now"}'
    prepared = prepare(text)
    assert prepared.segments == ["Save", "Open XX0X files", r'Say \"hi\" now']
    assert prepared.restore(["Speichern", "XX0X Dateien öffnen", r'Sag \"hi\" jetzt']) == (
        r'{"save": "Speichern", "open": "%s Dateien öffnen", "n": 3, "t": "Sag \"hi\" jetzt"}')
    prepared = prepare('{"n": "%s files", "m":"Open file"}', unknown=lambda s: [m.span() for m in re.finditer('"', s)])
    assert prepared.segments == ["XX0X files", "Open file"]
    assert prepared.restore(["XX0X Dateien", "Datei öffnen"]) == '{"n": "%s Dateien", "m":"Datei öffnen"}'
    compact = prepare('{"a":"Open %s files","b":"Hi"}', unknown=lambda s: [m.span() for m in re.finditer('[{"]', s)])
    assert compact.segments == ["Open XX0X files", "Hi"]  # each key one item with "{", the colon and the opening mark
    days = prepare('"days": ["Monday", "Tuesday"],')  # an array of strings after a key: each string alone
    assert days.segments == ["Monday", "Tuesday"]  # read with the rest, "Tuesday" came back as "Tuestag"
    assert days.restore(["Montag", "Dienstag"]) == '"days": ["Montag", "Dienstag"],'
    pretty = prepare('{\n  "days": [\n    "Monday",\n    "Tuesday"\n  ]\n}')  # one a line: '"Tuestag"' before
    assert pretty.segments == ["Monday", "Tuesday"]
    assert pretty.restore(["Montag", "Dienstag"]) == '{\n  "days": [\n    "Montag",\n    "Dienstag"\n  ]\n}'
    assert prepare('Error %s: "file not found"').segments == ['Error XX0X: XX1Xfile not foundXX2X']  # one sentence
    assert prepare('{"save": "Save"}', preserve_placeholders=False).segments == ['{"save": "Save"}']


def test_a_configuration_files_keys_are_kept_and_each_value_is_translated_alone():
    """Read, the keys were translated and the file broke for its program: "Comment=Edit text files" came back as
    "Kommentar=Bearbeiten bearbeiten", "button.cancel = Cancel" as "Knopf.cancel = Abbrechen", "title:" under "en:"
    as "Titel:". In a text that is such a file (two assignments or more, or one under a section header; YAML where a
    key opens a mapping), keys, section headers and the quotes around a YAML value are kept and separate segments.
    A message's labels stay text: "Tolerance = %g" (spaced, a word), one "idmap=user", "Usage:" over a help text."""
    desktop = prepare("[Desktop Entry]\nName[de]=Text Editor\nComment=Edit text files\nKeywords=text;editor;")
    assert desktop.segments == ["Text Editor", "Edit text files", "text;editor;"]
    assert desktop.restore(["Texteditor", "Textdateien bearbeiten", "Text;Editor;"]) == (
        "[Desktop Entry]\nName[de]=Texteditor\nComment=Textdateien bearbeiten\nKeywords=Text;Editor;")
    properties = prepare("button.save = Save changes\nbutton.cancel = Cancel")
    assert properties.segments == ["Save changes", "Cancel"]
    strings = prepare('"welcome_title" = "Welcome to our store";\n"quote" = "Say \\"hi\\"";')  # Apple's
    assert strings.segments == ["Welcome to our store", 'Say \\"hi\\"']  # "Welcome" came back as "Wechsel"
    assert strings.restore(["Willkommen", 'Sag \\"hallo\\"']) == '"welcome_title" = "Willkommen";\n"quote" = "Sag \\"hallo\\"";'
    yaml = prepare('# Strings of the shop.\n\nen:\n  welcome:\n        title: Welcome\n        body: "Please sign in."')
    assert yaml.segments == ["# Strings of the shop.", "Welcome", "Please log in."]  # indented: no Markdown code
    assert yaml.restore(["# Zeichenketten.", "Willkommen", "Bitte anmelden."]) == (
        '# Zeichenketten.\n\nen:\n  welcome:\n        title: Willkommen\n        body: "Bitte anmelden."')
    for message in ("Tolerance = %g\nBandwidth = %g", "idmap=user", "title: Welcome\nbody: Hello",
                    "Usage:\n  prog: the program\n  file: a file",
                    # a tag's attributes, one to a line, as DocBook's HTML writes them: read as keys, they cut the tag,
                    # and its values were translated ('CLASS="BOOK"' came back as "BOK", "#FFFFFF" as "#FFFF")
                    '<BODY\nCLASS="BOOK"\nBGCOLOR="#FFFFFF"\n>'):
        assert not config_keys(message), message
    assert protected_items("n = %d\nmean = %g") == ["%d", "%g"]


def test_a_word_the_model_glued_to_a_token_is_spaced_as_in_the_source():
    """"2 lbs" came back as "2lbs", "%d lags" as "%dlags" (6 of 2,025 held-out catalog items followed by a word; no
    reference glues them). German's "2.4er Kernel", a token after a token, and a word the source glues stay glued;
    a name glued to a noun gets its hyphen."""
    assert prepare("The package weighs 2 lbs.").restore(["Das Paket wiegt XX0Xlbs."]) == "Das Paket wiegt 2 lbs."
    assert prepare("Truncation at %d lags").restore(["Abschnitt bei XX0Xlags"]) == "Abschnitt bei %d lags"
    assert prepare("In 2.4 kernels it works").restore(["In XX0Xer Kerneln geht es"]) == "In 2.4er Kerneln geht es"
    assert prepare("%s %s files").restore(["XX0XXX1X Dateien"]) == "%s %s Dateien"
    assert prepare("Run %sfoo and %s bar").restore(["XX0Xfoo und XX1Xbar"]) == "%sfoo und %s bar"
    assert prepare("PipeWire filters").restore(["XX0XFilter"]) == "PipeWire-Filter"


def test_windows_after_a_word_is_the_system_and_kept_as_a_name():
    """Read, the model wrote a window: "for 32-bit Windows applications" came back as "für 32-Bit-Fenster-Anwendungen"
    (16 of the 35 in two samples of package descriptions and catalog messages). Kept after a word in small letters,
    "Microsoft", "MS" or "X", as a name that qualifies a noun; not where it opens a sentence, nor before a capitalized
    word (a title's, "Resize Windows Quickly"), where it may be windows."""
    for text, item in [("Loader for 32-bit Windows applications.", "Windows"),
                       ("Tested on Linux and Windows.", "Windows"), ("Files from Microsoft Windows, OS X.", "Windows"),
                       ("Windows can be resized.", None), ("Resize Windows Quickly", None),
                       ("Move and resize windows", None)]:
        assert prepare(text).protected == ([item] if item else []), text
    assert prepare("Loader for 32-bit Windows applications.").restore(["Lader für 32-Bit XX0X Anwendungen."]) == \
        "Lader für 32-Bit Windows-Anwendungen."


def test_a_package_or_library_name_in_small_letters_is_kept_as_a_name():
    """Read, "fonts-dejavu-core" came back as "Schriftarten-dejavu-core", "voms-proxy-init" as "dems-proxy-init",
    "libprocesscore" as "Bibliotheksprozesse" (of 518 such names in two samples of package descriptions, 164 changed
    or lost), "dictfmt" as "Diktfmt". A name: one of its words unknown to the lexicon; not after a prefix or before an
    adjective's head, not a word the lexicon knows, "libre", nor part of a placeholder, a path, an option or a file's
    name; a word alone (not "lib...") also spelled as English words are not and no English word's derivative. And a
    name of capitals and small letters ("AAlib" came back as "ASCII-Abhängigkeit") the lexicon does not know."""
    for text, items in [("This package contains the shared library libprocesscore.", ["libprocesscore"]),
                        ("This package provides dictfmt.", ["dictfmt"]),
                        ("It starts ksysgardd, nxagent and npm.", ["ksysgardd", "nxagent", "npm"]),
                        ("A friendlier, debuggable interface for amplicon data.", []),  # spelled like English
                        ("It was chrooted twice.", []),  # a derivative: "chroot" and "-ed"
                        ("Tests with NUnit, RSpec and AAlib.", ["NUnit", "RSpec", "AAlib"]),  # capitals, small letters
                        ("Burn CDs and OSes with GObject.", []),  # plurals, and a name the lexicon knows
                        ("It provides voms-proxy-init and voms-proxy-info.", ["voms-proxy-init", "voms-proxy-info"]),
                        ("Metapackage to pull fonts-dejavu-core", ["fonts-dejavu-core"]),
                        ("An nft-based firewall, debhelper-like.", []), ("You must re-initdb the cluster.", []),
                        ("A read-only, state-of-the-art drop-in library.", []), ("A libre client.", []),
                        ("It has no %lu-byte type.", ["%lu"]), ("Use --no-qzx-check here.", ["--no-qzx-check"]),
                        ("See /usr/lib/libqzx.so and libqzx.so.1", ["/usr/lib/libqzx.so", "libqzx.so.1"]),
                        ("Edit qzx-bar.conf now.", ["qzx-bar.conf"])]:
        assert prepare(text).protected == items, text
    assert prepare("Install the libglew-dev package.").restore(["Installieren Sie das XX0X Paket."]) == \
        "Installieren Sie das libglew-dev-Paket."
    assert prepare("Install the dictd daemon.").restore(["Installieren Sie den XX0X Daemon."]) == \
        "Installieren Sie den dictd-Daemon."
    from translator.text import is_name
    assert not is_name("follow-up")  # an item of that shape from elsewhere (a glossary's term) is no name for it


def test_a_sentences_subject_in_small_letters_before_its_verb_is_a_name():
    """English starts a sentence with a capital, so a subject in small letters is a program's name: read, "flashrom is
    a tool" came back as "Blitzrom ist ein Werkzeug", "node-debug provides" as "Knoten-Debug bietet" (of such
    subjects in two samples of package descriptions, German keeps 32 the model changed). One word the lexicon does
    not know, or words joined by hyphens that are no English compound (but where the sentence says it is software,
    below); not another verb's subject, nor a word inside a sentence."""
    for text, items in [("flashrom is a tool for flash chips.", ["flashrom"]),
                        ("It is small. node-debug provides a debugger.", ["node-debug"]),
                        ("cinnamon-screensaver is the screensaver.", ["cinnamon-screensaver"]),
                        ("prison is a place.", []), ("add-ons can be installed.", []),  # English, a compound
                        ("flashrom reads flash chips.", []), ("Use it, flashrom is fast.", [])]:
        assert prepare(text).protected == items, text


def test_a_hyphenated_name_in_small_letters_is_written_as_the_source_does():
    """The model copied a name of words joined by hyphens but wrote letters of it in capitals, as German starts a noun
    ("evolution-data-server" came back as "Evolution-data-server", "git-rebase" as "git-Rebase"; the German writes 62
    of 82 such copies in held-out package descriptions and catalog messages as the source does, 1 as the model did).
    A copy with each word from a capital, as German writes a compound noun ("FTP-Client"), English compounds German
    writes as nouns, a name the source writes in capitals too, and a translated name stay as the model wrote them;
    such a segment streams whole."""
    prepared = prepare("This package contains the header files of evolution-data-server.")
    assert not prepared.streams(0)
    assert prepared.restore(["Dieses Paket enthält die Header-Dateien des Evolution-data-server-Pakets."]) == \
        "Dieses Paket enthält die Header-Dateien des evolution-data-server-Pakets."
    assert prepare("Run git-rebase now.").restore(["Führen Sie jetzt git-Rebase aus."]) == \
        "Führen Sie jetzt git-rebase aus."
    for text, german in [("A plug-in for multi-platform pop-up menus.", "Ein Plug-in für Multi-platform-Pop-up-Menüs."),
                         ("An in-memory, thread-safe queue.", "Eine In-memory, Thread-safe Warteschlange."),
                         ("The Desktop-Entry file names desktop-entry.",
                          "Die Desktop-Entry-Datei nennt Desktop-entry."),
                         ("It provides update-grub.", "Es stellt Aktualisierungs-Grub bereit."),
                         ("Wput is a tiny ftp-client.", "Wput ist ein kleiner FTP-Client.")]:
        assert prepare(text).restore([german]) == german, text
    assert prepare("Use the plug-in.").streams(0)


def test_an_options_metavariable_is_said_alike_across_the_translation():
    """Read a sentence at a time, the model translated an option's metavariable in some places and kept it in others
    ("-o DATEI, --old-file=FILE ... FILE als sehr alt"; 78 of 1,770 held-out catalog messages). It is said as the
    word in capitals the source lacks that the translation gives one of its options where the source gives it the
    metavariable, and says as often as the metavariable is missing; where none or several are, or the model kept or
    translated it everywhere, the translation stays as it is."""
    prepared = prepare("-o FILE, --old-file=FILE   consider FILE to be very old")
    assert prepared.whole  # said alike across its segments, so it streams whole
    assert prepared.restore(["-o DATEI, XX0X=FILE", "DATEI als sehr alt ansehen"]) == \
        "-o DATEI, --old-file=DATEI   DATEI als sehr alt ansehen"
    metavariables = Metavariables.of("-s, --size=SIZE  use SIZE bytes (see URL)")
    assert metavariables.said_alike("-s, --size=GRÖSSE  SIZE Bytes verwenden (siehe URL)") == \
        "-s, --size=GRÖSSE  GRÖSSE Bytes verwenden (siehe URL)"
    for unchanged in ("-s, --size=SIZE  SIZE Bytes verwenden", "-s, --size=GRÖSSE  GRÖSSE Bytes verwenden",
                      "-s, --size=SIZE  GRÖSSE Bytes verwenden",  # not the option's value
                      "-s, --size=GRÖSSE  SIZE Bytes, GRÖSSE verwenden",  # said more often than SIZE is missing
                      "-s, --size=URL  SIZE Bytes verwenden (siehe URL)"):  # a word the source says
        assert metavariables.said_alike(unchanged) == unchanged, unchanged
    assert Metavariables.of("Open the FILE menu.") is None and Metavariables.of("Use -o to write it.") is None
    assert prepare("<p>Use --size=SIZE with SIZE bytes.</p>", html=True).metavariables is None
    # a value the model misspelt a letter off the metavariable ("--width=WIDTE") is the metavariable, everywhere, and
    # is not said in its place; one German writes is a translation ("--type=TYP")
    prepared = prepare("-w, --width=WIDTH   use WIDTH columns\n    wrap at WIDTH")
    assert prepared.restore(["-w, XX0X=WIDTE", "WIDTH-Spalten verwenden", "bei WIDTE umbrechen"]) == \
        "-w, --width=WIDTH   WIDTH-Spalten verwenden\n    bei WIDTH umbrechen"
    typed = Metavariables.of("--type=TYPE  use TYPE")
    assert typed.said_alike("--type=TYP  TYPE verwenden") == "--type=TYP  TYP verwenden"


def test_a_placeholder_joined_to_a_metavariable_by_the_model_stands_apart():
    """"Usage: %s FILE\n  or:  %s OPTION" came back with "%s-OPTION" (13 of 1,837 wrapped catalog messages; the
    installed catalogs' German writes all 51 such pairs apart), in a line in capitals too. A name's token stays joined
    to the acronym after it, as German writes a compound ("FreeType 2 API": "FreeType 2-API")."""
    assert prepare("Usage: %s FILE\n  or:  %s OPTION\n").restore(["Aufruf: XX0X DATEI", "oder:", "XX0X-Option"]) == \
        "Aufruf: %s DATEI\n  oder:  %s OPTION\n"
    assert prepare("Run {program} COMMAND").restore(["XX0X-BEFEHL ausführen"]) == "{program} BEFEHL ausführen"
    assert prepare("The FreeType 2 API").restore(["Die XX0X-API"]) == "Die FreeType 2-API"


def test_a_count_joined_to_its_noun_by_the_model_stands_apart_as_german_writes_it():
    """"Imported %(total)d redirects" came back as "%(total)d-Weiterleitungen importiert" (20 held-out WordPress,
    Django and catalog messages; a space in every reference). A name's compound, a noun the source joins itself and
    a compound's chain stay joined."""
    cases = {"Imported %(total)d redirects": ("XX0X-Weiterleitungen importiert",
                                              "%(total)d Weiterleitungen importiert"),
             "Delete %(count)s documents": ("XX0X-Dokumente löschen", "%(count)s Dokumente löschen"),
             "Found {num_items} files": ("XX0X-Dateien gefunden", "{num_items} Dateien gefunden"),
             "Delete { $count } files": ("XX0X-Dateien löschen", "{ $count } Dateien löschen"),
             "%.1f seconds left": ("XX0X-Sekunden übrig", "%.1f Sekunden übrig"),
             "Open the %s plugin": ("Das XX0X-Plugin öffnen", "Das %s-Plugin öffnen"),
             "Use a %d-bit key": ("Einen XX0X-Bit-Schlüssel verwenden", "Einen %d-Bit-Schlüssel verwenden"),
             "a %u bit hash": ("ein XX0X-Bit-Hashverfahren", "ein %u-Bit-Hashverfahren")}
    for source, (translation, expected) in cases.items():
        assert prepare(source).restore([translation]) == expected, source


def test_an_option_joined_to_its_argument_by_the_model_stands_apart_as_a_command_line_writes_it():
    """"-e STRING" came back as "-e-ZEICHENKETTE", "--label LABEL" as "--label-ETIKETTEN" (20 of 1,770 held-out catalog
    messages; the installed catalogs' German writes 1,133 of 1,137 apart). Not where the source has no word after it,
    nor one that names what the option is ("the -M switch": "den -M-Schalter"). Nor an abbreviation German writes
    otherwise from the word after it."""
    cases = {"Use -e STRING as the pattern": ("XX0X-ZEICHENKETTE als Muster verwenden", "-e ZEICHENKETTE als Muster"),
             "Set --label LABEL": ("XX0X-ETIKETTEN setzen", "--label ETIKETTEN setzen"),
             "Run with -x.": ("Mit XX0X-Schalter ausführen.", "Mit -x-Schalter"),
             "Use the -M switch.": ("Den XX0X-Schalter verwenden.", "Den -M-Schalter"),
             # an abbreviation shown in German: "(i.e. facets ...)" came back as "(d.h.-Kennungen ...)"
             "It reads e.g. images.": ("Es liest XX0X-Bilder.", "Es liest z.B. Bilder."),
             "Some readers, e.g., Kindle": ("Einige Leser, XX0X-Kindle", "Einige Leser, z.B. Kindle")}
    for source, (translation, expected) in cases.items():
        assert prepare(source).restore([translation]).startswith(expected), source


def test_a_segment_after_a_kept_token_keeps_its_space_when_the_model_drops_the_marks_before_it():
    """A hostile model's case (the property test below): "&nbsp;, && house" without its comma came back as
    "&nbsp;&& house", the operator glued to the reference; "(reinstall), downgraded" as "(reinstall)downgraded".
    After an opening mark nothing is added."""
    prepared = prepare("house  &nbsp;, && house")
    assert prepared.segments[-1] == ", XX0X house"
    assert prepared.restore([prepared.segments[0], "XX0X Haus"]) == "house  &nbsp; && Haus"
    assert prepared.restore([prepared.segments[0], ", XX0X Haus"]) == "house  &nbsp;, && Haus"
    reinstall = prepare("Install it (reinstall), downgraded or not.")
    assert reinstall.restore(["Installiere es", "neu", "abgestuft oder nicht."]) == \
        "Installiere es (neu) abgestuft oder nicht."
    mouse = prepare("Use the mouse (& Ctrl-key for more)")
    assert mouse.restore([mouse.segments[0], "Strg-Taste für mehr"]).endswith("(Strg-Taste für mehr)")


def test_asciidoc_inline_markup_is_kept_and_a_links_text_translated():
    """Of git's and Asciidoctor's pages, "linkgit:git-log[1]" came back whole in 181 of 308, "<<reviewing,Responding
    to Reviews>>" lost its ">>": a macro, an anchor, an index term, a passthrough and an attribute reference with a
    hyphen are kept as written; a link's, a cross reference's, a footnote's and a button's text is translated (a "]"
    in it escaped). A Markdown footnote after a colon is no macro."""
    prepared = prepare("See linkgit:git-log[1] and <<install,the guide>> or https://example.org[our site].")
    assert prepared.protected == ["linkgit:git-log[1]", "<<install,the guide>>", "https://example.org[our site]"]
    assert prepared.segments == ["See XX0X and XX1X or XX2X.", "the guide", "our site"]
    assert prepared.restore(["Siehe XX0X und XX1X oder XX2X.", "die Anleitung", "unsere [Seite]"]) == \
        "Siehe linkgit:git-log[1] und <<install,die Anleitung>> oder https://example.org[unsere [Seite\\]]."
    kept = prepare("Press kbd:[Ctrl+T], see image:a.png[A dog] and pass:[<u>x</u>] at [[top]] with (((Dog, old))) "
                   "for {product-name} and +{x}+.")
    assert kept.protected == ["kbd:[Ctrl+T]", "image:a.png[A dog]", "pass:[<u>x</u>]", "[[top]]", "(((Dog, old)))",
                              "{product-name}", "+{x}+"]
    assert prepare("It is relevant to my dependencies:[^2] here.").protected == ["[^2]"]
    assert prepare("Use C++ and +1 or the +/- keys, a + b + c.").protected == ["1", "+/-"]


def test_a_code_span_that_a_paragraph_wraps_is_one_item_and_a_stray_backtick_pairs_with_none_on_a_later_line():
    """In 29 of git's manual pages a code span goes on over a line break ("`git\\nbisect`" came back as
    "`git\\nHalbierung`"); one that opens or closes beside a word ("_`DIR`_ is\\n`themes`") pairs with nothing."""
    assert prepare("Run `git\nbisect start` now.").protected == ["`git\nbisect start`"]
    assert prepare("Set _`DIR`_ is\n`themes/docsy`. For a module it is printed.").protected == ["`themes/docsy`"]
    assert prepare("Run `git\n\nbisect` now.").protected == []  # a blank line ends a paragraph
    # an element it shows is code too ("`<style>body{}</style>`", protected first, lost its backticks)
    assert prepare("Add `<style>body{}</style>` to <script>go()</script> it.").protected == [
        "`<style>body{}</style>`", "<script>go()</script>"]
    # and code inside an element is the element's: a <pre> holding "`pwd`" was dropped for it, its commands translated
    # ("pip wheel" came back as "Pip-Raumrad")
    block = "<pre><code>$ pip wheel -r requirements.txt\n$ cwd=`pwd`</code></pre>"
    assert prepare(f"{block}\n<p>Run it.</p>", html=True).protected == [block, "<p>", "</p>"]
    # and a fence inside one is its content: paired with the next <pre>'s, the text between them was a code block and
    # the second <pre>'s code was translated ("let x = 5;" came back as "lassen x = 5")
    fenced = ["<pre><code>```rust\nlet x = 5;\n```\n</code></pre>", "<pre><code>```\nlet x = 5;\n```\n</code></pre>"]
    assert prepare(f"{fenced[0]}\n<p>is the same as:</p>\n{fenced[1]}", html=True).protected == [
        fenced[0], "<p>", "</p>", fenced[1]]


def test_fluents_placeables_are_items():
    """Fluent's placeables, a variable's, a term's, a message's reference, a function's call (its arguments over
    several words) and a string literal: read, '{ DATETIME($date, day: "numeric") }' came back with "Tag:", and
    "{ main-context-menu-back-2.aria-label }" with "aria-Label" (Firefox's 228 en-US files: 116 values changed)."""
    text = ('Save { $name } to { -brand-name }, {NUMBER($n, maxFractionalUnits: 2)} on { DATETIME($date, day: '
            '"numeric") } as { menu-save.aria-label } with { "{" }.')
    assert prepare(text).protected == ["{ $name }", "{ -brand-name }", "{NUMBER($n, maxFractionalUnits: 2)}",
                                       '{ DATETIME($date, day: "numeric") }', "{ menu-save.aria-label }", '{ "{" }']
    assert prepare('{ "save": "Save the file" }').segments == ["Save the file"]  # a JSON object is none


def test_an_iso_timestamp_is_kept_as_written():
    """No item held "2025-12-25T10:00:00Z", and the model lost its seconds ("Zeitstempel: 2025-12-25T10:00Z")."""
    assert protected_items("Timestamp: 2025-12-25T10:00:00Z, or 2025-12-25T10:00:00.123+02:00 and 2025-01-02T03:04.") \
        == ["2025-01-02T03:04", "2025-12-25T10:00:00.123+02:00", "2025-12-25T10:00:00Z"]


def test_a_hashtag_or_a_channel_after_a_space_is_kept_as_written():
    """Read, "Ping me at #general." came back as "... #Gegeneral.", "#photography" as "#photografie": after a space,
    a hashtag, a channel or a directive is an item; a label that opens a text or a usage's ("#Open", "<#chan>"),
    which catalogs translate, a number, a colour and a heading stay as they were."""
    assert protected_items("Ping me at #general, tag #SummerSale and use #pragma once.") == [
        "#SummerSale", "#general", "#pragma"]
    assert protected_items("#Open the <#chan> #1 # Title") == []


def test_a_companys_name_with_its_legal_form_is_kept_as_written():
    """Read, "Acme Inc. was founded in 1990." came back as "Der Akkriminanz. wurde ...", "Example Inc." as
    "Beispiel-Inc.": the name and its legal form are an item, with its dot where the sentence goes on (else the dot
    ends the sentence), a comma before it too ("Free Software Foundation, Inc."); not an article before the name."""
    assert prepare("Acme Inc. was founded in 1990. It makes tools.").protected[0] == "Acme Inc."
    copyright = prepare("Copyright © 2024 Example Inc. All rights reserved.")
    assert copyright.segments == ["Copyright XX0X.", "All rights reserved."]
    assert protected_items("Made by Cisco Systems Inc., The Assassination Bureau Ltd and Collabora Ltd.") == [
        "Assassination Bureau Ltd", "Cisco Systems Inc.", "Collabora Ltd"]
    # a comma before the legal form: every GNU program's copyright ("Freie Software Foundation, Inc." before)
    assert protected_items("Copyright (C) 2024 Free Software Foundation, Inc.\nThis is free software.") == [
        "Free Software Foundation, Inc"]


def test_a_terminals_control_sequences_are_kept_as_written():
    """A manual page or a log rendered with colours: "\x1b[1mkill \x1b[22mis a good example" came back with
    "\x1b[2m" (the model read "[22m" and dropped a digit); each sequence is an item, the words around it read."""
    prepared = prepare("\x1b[1mkill \x1b[22mis a good example. \x1b[38;5;196mError:\x1b[0m disk full.")
    assert prepared.protected == ["\x1b[1m", "\x1b[22m", "\x1b[38;5;196m", "\x1b[0m"]
    assert prepared.segments == ["XX0Xkill XX1Xis a good example.", "XX0XError:XX1X disk full."]
    # and a path underlined so ("\x1b[4m/usr/share/man\x1b[0m" came back as "/usr/Share/Meute"): one item with them
    assert prepare("See \x1b[4m/usr/share/man/de\x1b[0m here.").protected == ["\x1b[4m/usr/share/man/de\x1b[0m"]


def test_a_commits_hash_is_kept_as_written():
    """Read, "Commit a1b2c3d fixed the bug." came back as "Einen1b2c3d den Fehler beheben."; a run of hex digits and
    letters is an item; a word of hex letters alone ("defaced") is none, digits alone a number."""
    assert protected_items("Commit a1b2c3d fixed it, see 9fceb02; not defaced or 1234567.") == ["9fceb02", "a1b2c3d"]


def test_a_manual_pages_name_and_a_hexadecimal_number_are_kept_as_written():
    """Read, a manual page's name was translated or lost ("crypt(3)" came back as "Crypt(3)", "open(2)" as
    "Öffnen(2)"; 46 of the 102 corpus texts with one) and a hexadecimal number lost digits ("0x8822" as "0x822");
    each is an item. A word's own parenthesis ("file(s)") and a call's arguments ("f(x)") stay read."""
    assert protected_items("See open(2) and git-rev-list(1), not file(s) or f(x); seek to 0x1c, tag 0xA001.") == [
        "0x1c", "0xA001", "git-rev-list(1)", "open(2)"]
    # a section with letters, and its header's and footer's name in capitals ("OPENSSL-CMDS(1SSL)" came back as "ÖFFNE
    # SL-CMDSL"), not a type's in a sentence ("REAL(4)", which the model keeps)
    assert protected_items("BZIP2(1)    General Commands Manual    BZIP2(1)\nSee ssl(7ssl).\n3.0.19    2026-01-27    "
                           "OPENSSL-CMDS(1SSL)\nInterpret any REAL(4) as a REAL(8).") == [
        "BZIP2(1)", "BZIP2(1)", "OPENSSL-CMDS(1SSL)", "ssl(7ssl)"]
    # and the X protocol's "#x0200" (sent alone, "#x0400" came back as "#x0Xx00"), not a character reference's
    assert protected_items("     #x0400    XkbAccessXNotify, &#x20; or #x1F") == [
        "#x0400", "#x1F", "&#x20;", "XkbAccessXNotify"]
    # and a Unicode code point or a range of them ("U+0222-U+0223" came back as "U+022-U+0223"), not after a word
    assert protected_items("Use U+00E9, U+0222-U+0223 and U+03E2-03EF, not AU+0041 or U+41.") == [
        "U+00E9", "U+0222-U+0223", "U+03E2-03EF"]


def test_a_name_of_small_letters_and_digits_is_kept_as_written_in_a_text_of_more():
    """Read, "The script pip3 is installed." came back as "Das Skript-Pipe ...", "magic8 corrupted" as "magisch8
    beschädigt"; such a name is an item, but alone (a label's, "window1", which catalogs translate)."""
    assert protected_items("The script pip3 needs base64 and uint32, not x86 or 3d.") == ["base64", "pip3", "uint32"]
    assert protected_items("window1") == [] and protected_items("Open window1 now.") == ["window1"]
    # with a version ("plink1.9" was lost), and before a sentence's full stop
    assert protected_items("Renamed to plink1.9, not valid utf8. Read file1.txt.") == ["file1.txt", "plink1.9", "utf8"]
    # in parts a dash joins, a package's or a target's, but not a compound whose number stands alone
    text = "Install python3-dev, libcolord-gtk4 and gir1.2-gtk-3.0 on x86-64; a tier-1 bank in the mid-1980s, utf-8."
    assert protected_items(text) == ["gir1.2-gtk-3.0", "libcolord-gtk4", "python3-dev", "x86-64"]


def test_a_code_of_capitals_and_its_number_is_kept_as_written():
    """Read, the model dropped or changed the code ("Flight LH 454 departs" came back as "HIN 454 trennt", "reduced to
    EUR 800" as "auf 800 reduziert"); two or three capitals and a number are an item; not a number's part of a range,
    a decimal or a word."""
    assert protected_items("Flight LH 454, EUR 800 or GTK 4; not ISO 8859-1, EUR 5,000, ABCD 5 or AB 12x.") == [
        "EUR 800", "GTK 4", "LH 454"]


def test_a_products_name_with_its_lines_word_is_kept_as_written():
    """Read, the model dropped the word or translated it ("The iPhone 15 Pro costs" came back as "Die iPhone 15
    kosten", "MacBook Air" as "MacBook-Luft"); a name with a capital inside or a model number, and the line's word,
    are an item; not a word alone ("the Pro version") nor after a plain word ("Go Pro")."""
    assert protected_items("The iPhone 15 Pro Max, MacBook Air, Galaxy S24 Ultra and Windows 11 Pro; the Pro "
                           "version, Go Pro.") == ["Galaxy S24 Ultra", "MacBook Air", "Windows 11 Pro",
                                                   "iPhone 15 Pro Max"]


def test_swifts_interpolations_are_items():
    """Read, "Hello \\(name), welcome back!" came back as "Hello \\(Name), ..." (the name a Swift string reads from
    no longer exists); an interpolation, with a call's brackets inside, is an item."""
    assert protected_items("Hello \\(name), you have \\(items.count) of \\(max(a, b)).") == [
        "\\(items.count)", "\\(max(a, b))", "\\(name)"]


def test_a_name_spelled_with_letters_outside_ascii_is_kept_as_written():
    """Read, the model changed or dropped such names, which its training data has few of ("Zoë and François are
    fine." came back as "Zora und Franzois sind fein."); words in small letters ("café") stay text, German spells
    them its own way. With the placeholders off, names are text too."""
    def items(text):
        return sorted(prepare(text).protected)

    assert items("Zoë and François met in São Paulo, at Łukasz's café.") == ["François", "São", "Zoë", "Łukasz"]
    assert items("ZOË AND FRANÇOIS ARE HERE.") == ["FRANÇOIS", "ZOË"]
    assert items("The café serves a naïve crème brûlée.") == []
    assert prepare("Ask Renée about it.", preserve_placeholders=False).segments == ["Ask Renée about it."]
    # and a letter alone or a word of another script ("Characters: ñ, ç, ø, å." came back as "Zeichen: „Quoten“,
    # Scheck, ø, Scheck."); not French's "à" nor a letter a hyphen joins, which the dictionary translates
    assert items("Type ñ, ç or ß; the angles α and β; привет and λόγος; µ.") == [
        "µ", "ß", "ç", "ñ", "α", "β", "λόγος", "привет"]
    assert items("A vis-à-vis, à la carte, a tête-à-tête.") == []


def test_a_name_the_model_never_learned_is_kept_as_written():
    """Read, the model changed or dropped names it had not learned ("The update for Kubernetes is ready." came back
    as "... für Kubernet ...", "Ansible" as "ehrbaren"). A run of capitalized words none of which the shipped word
    lists know is an item after a word, a number or a comma; at a sentence's start, where every English sentence
    has a capital, only where each word is a name German keeps or where it is one word before an English word in
    small letters (the sentence's subject). Words German translates stay text: English ones ("Save", "Windows", "New
    York") and capitalized ones ("Monday", "German"). The model dropped titles and the names after them ("Ask Mr.
    Brown about the invoice." came back as "Nachfragen Sie über die Rechnung.")."""
    from translator.text import ascii_names

    def names(text):
        return [text[start:end] for start, end in ascii_names(text)]

    assert names("The update for Kubernetes is ready.") == ["Kubernetes"]
    assert names("We deploy it with Ansible, Terraform and Jenkins.") == ["Ansible", "Terraform", "Jenkins"]
    assert names("She looks like Romy Schneider in 1970.") == ["Romy Schneider"]
    assert names("Drivers for the Hewlett-Packard Omnibook 500") == ["Hewlett-Packard Omnibook"]
    assert names("Anna works with Hannah.") == ["Anna", "Hannah"]  # a name German keeps may start a sentence,
    assert names("Linda fixed it. Redis supports it.") == ["Linda", "Redis"]  # and a proper noun SCOWL lists
    assert names("Kubernetes runs it. Activatable items are listed.") == ["Kubernetes"]  # and a word alone before an
    # English word in small letters, but not an English word's derivative (`_subject_of_english`); a run of words
    # there may be any words
    assert names("Kubernetes Engine runs it. Activatable items are listed.") == []
    assert names("Install Kubernetes now. Use Ansible. Open New York.") == ["Kubernetes", "Ansible"]  # and the rest
    # of the run after an English word that starts the sentence follows a word
    assert names("Click Save to open Windows on Monday in New York, German Bundesliga.") == []
    assert names("Press Ctrl+Alt, see O'Brien's e-Mail and ask Jean-Luc.") == ["O'Brien's", "Jean-Luc"]
    # A given name and a surname, whatever the surname's word ("Kevin White joined the team." came back as "Kevin Weiß
    # hat ..."), also after a word that addresses a person; not a product's name and a noun, nor a day
    assert names("Kevin White joined. Contact Mary Brown or ask Robert King.") == ["Kevin White", "Mary Brown",
                                                                                   "Robert King"]
    assert names("Gantt Chart. Open Kevin Settings. Prince Edward Island. Thomas Sunday") == []
    # A street's name after a house number or a preposition, or of names alone ("Our office is at 123 Main Street."
    # came back as "... auf 123 Hauptstadt ..."); not a label or a description of English words
    assert names("At 123 Main Street, turn onto Oak Road. Visit Dundas Street, near Park Lane.") == [
        "Main Street", "Oak Road", "Dundas Street", "Park Lane"]
    assert names("Add Street. Winding Road. Home Address Street") == []
    # An Irish or French name's "O'" or "D'" is part of it, a name at a sentence's start too ("The O'Reilly book is
    # open." came back as "Das Osso ist widerlich geöffnet."); "O'Clock" is none
    assert names("O'Neill called. The O'Reilly book and Sean O'Hara's note. D'Angelo left at 12 O'Clock.") == [
        "O'Neill", "O'Reilly", "Sean O'Hara's", "D'Angelo"]
    # A name after a title, whatever its words ("brown" is English), with its title; not one glued to it
    assert names("Ask Mr. Brown and Mrs. Smith-Jones, Dr. Who and Prof. Young.") == [
        "Mr. Brown", "Mrs. Smith-Jones", "Dr. Who", "Prof. Young"]
    assert names("Mr.Brown and St. John") == []
    titled = prepare("Ask Mr. Brown, Mrs. Lee and Ms. Mack's team.")  # "Mrs." and "Ms." as German's "Frau"
    assert titled.restore(titled.segments) == "Ask Herrn Brown, Frau Lee and Frau Macks team."
    # "Mr." as "Herr" where the name is a subject or addressed, else as "Herrn" (the dictionary's 8 such pairs)
    for text, german in {"Mr. Smith will call. Is Mr. Lee here? This is Mr. Brown.": ["Herr"] * 3,
                         "Dear Mr. Brown, thank you, Mr. Lee. Dear Ms. Lee,": [
                             "Sehr geehrter Herr", "Herr", "Sehr geehrte Frau"],  # a letter's salutation
                         "Mrs. Lee and Mr. Brown came. I met Mr. Lee and Mr. Brown.": [
                             "Frau", "Herr", "Herrn", "Herrn"],
                         "May I introduce Mr. Brown to you? Mr. Brown's notes": ["Herrn", "Herrn"]}.items():
        prepared = prepare(text)
        assert [value.value.glue[0] for value in prepared.shown if value.value.glue[0] in (
            "Herr", "Herrn", "Frau", "Sehr geehrter Herr", "Sehr geehrte Frau")] == german, text
    # A couple, one item ("Mr." alone came back "Herr Herr und Frau Smith"), each addressed in a letter
    for text, german in {"Mr. and Mrs. Smith came.": "Herr und Frau Smith came.",
                         "I met Mr. and Mrs. Smith.": "I met Herrn und Frau Smith.",
                         "Dear Mr. and Mrs. Smith,": "Sehr geehrter Herr Smith, sehr geehrte Frau Smith,"}.items():
        prepared = prepare(text)
        assert prepared.restore(prepared.segments) == german
    # A possessive goes with its name, written as German writes it; not where "'s" is "is" or "has"
    assert names("We read Linda's report and Mr. Brown's notes. Linda's not here.") == [
        "Linda's", "Mr. Brown's", "Linda"]
    assert names("Linda's working on it. Anna's meeting starts. Oliver's finished the report.") == [
        "Linda", "Anna's", "Oliver"]  # a word in -ing or -ed: "is" and "has" where a word after "is" follows
    assert names("We read Zorblex's " + "seeing " * 3000 + "now.") == ["Zorblex's"]  # (a recursion over the
    # words after it would have ended in RecursionError)
    possessive = prepare("We read Linda's report, Kendall's tau and Kubernetes’s notes.")
    assert possessive.segments == ["We read XX0X report, XX1X tau and XX2X notes."]
    assert possessive.restore(["Wir lasen XX0X Bericht, XX1X Tau und XX2X Notizen."]) == (
        "Wir lasen Lindas Bericht, Kendalls Tau und Kubernetes’ Notizen.")
    # and so does one whose apostrophe a web page escapes: one item, as in the plain text
    page = prepare("We read Linda&#x27;s report and Kubernetes&#39;s notes.", html=True)
    assert page.segments == ["We read XX0X report and XX1X notes."]
    assert page.restore(["Wir lasen XX0X Bericht und XX1X Notizen."]) == (
        "Wir lasen Lindas Bericht und Kubernetes&#39; Notizen.")
    # and one whose item took the name after it (LilyPond's manual: "Mendelssohn&rsquo;s Elijah" came back so)
    works = prepare("Such as Mendelssohn&rsquo;s Elijah or Chopin's Première Ballade.", html=True)
    assert works.protected == ["Mendelssohn&rsquo;s Elijah", "Chopin's Première Ballade"]
    assert works.restore(["Wie XX0X oder XX1X."]) == "Wie Mendelssohns Elijah oder Chopins Première Ballade."
    # As items: kept in the translation; with placeholders off, text.
    assert prepare("The update for Kubernetes is ready.").segments == ["The update for XX0X is ready."]
    assert prepare("The update for Kubernetes is ready.", preserve_placeholders=False).segments == [
        "The update for Kubernetes is ready."]


def test_the_word_lists_are_built_from_the_training_pairs_and_read_back(tmp_path):
    """A capitalized word is English to translate where its headword's German differs ("Monday": "Montag") or where
    German keeps it in fewer than a quarter of its pairs; a name where German keeps it and English never writes it
    in small letters; a word German writes three times or more is German; a headword translated by an adjective
    describes; the files are the same bytes for the same pairs."""
    from translator import lexicon

    pairs = [("Monday", "Montag"), ("on Monday", "am Montag"), ("Anna is here", "Anna ist hier"),
             ("ask Anna", "frag Anna"), ("Windows", "Windows"), ("open the windows", "die Fenster öffnen"),
             ("John Doe", "Otto Normalverbraucher"), ("ask John", "frag Hans"), ("John Smith", "Max Mustermann"),
             ("dear John", "lieber Hans"), ("John Lennon", "John Lennon"), ("Andy's hobby", "Andys Hobby")]
    built = lexicon.build(pairs)
    assert {"on", "is", "here", "ask", "open", "the", "windows", "dear", "hobby"} <= built.words
    assert {"Monday", "John", "Doe", "Smith"} <= built.words  # translated: a headword, kept in 1 of 5 pairs
    assert built.names == {"Anna", "Andy", "Lennon"}  # "Andys Hobby" keeps "Andy"; "Windows" is English
    assert built.knows("Windows") and built.knows("John") and not built.knows("Anna")
    # German words: those the German side writes GERMAN_COUNT (3) times or more, in any case
    german = lexicon.build([("a list", "eine Liste"), ("the list", "die Liste"), ("list", "LISTE"),
                            ("a group", "eine Groupp")])
    assert german.german == {"liste"} and german.is_german("Liste") and not german.is_german("eine")
    # Describing words: headwords in small letters a pair translates with a German adjective or adverb, not a noun
    # (capitalized, or written in small letters by a catalog but capitalized mostly) nor a verb's infinitive
    described = lexicon.build([("cold", "kalt"), ("cold", "Kälte"), ("root", "Wurzel"), ("input", "eingeben"),
                               ("user", "benutzer"), ("a user", "ein Benutzer"), ("the user", "der Benutzer"),
                               ("quickly", "schnell")])
    assert described.describing == {"cold", "quickly"} and described.describes("cold")
    assert not described.describes("user") and not described.describes("root")
    listed = lexicon.build(pairs, proper_nouns=["Linda", "Monday", "Windows", "John", "Anna", "McDonald", "linda"])
    assert listed.names == built.names | {"Linda"} and listed.words == built.words  # the pairs' words stay theirs
    written = lexicon.write(built, tmp_path / "one")
    assert lexicon.write(lexicon.build(pairs), tmp_path / "two") and all(
        path.read_bytes() == (tmp_path / "two" / path.name).read_bytes() for path in written)
    assert lexicon.load(tmp_path / "one") == built
    lexicon.write(described, tmp_path / "three")
    assert lexicon.load(tmp_path / "three").describing == {"cold", "quickly"}


def test_long_command_line_options_are_kept_as_written_but_their_values_names_are_read():
    """Read, the model changed a long option in 11 of the 50 held-out test messages that have one ("--ignore-errors"
    came back as "--ignore-errore-Fehler-Fehler"); catalogs translate the name of its value ("--new-file=DATEI"). A
    value in small letters is what a user types ("--check=quiet" came back as "--check=Ende"), but not at a usage's
    brackets, where it names what goes there ("[-d path | --database=path]": "Pfad")."""
    text = "Use --ignore-errors or --new-file=FILE, not -- or foo--bar (see --help)."
    assert [item for item in protected_items(text) if "-" in item] == ["--help", "--ignore-errors", "--new-file"]
    text = "Use --color=never or --check=quiet. Usage: db [-d path | --database=path] [--sort=name]"
    assert [item for item in protected_items(text) if "-" in item] == [
        "--check=quiet", "--color=never", "--database", "--sort", "-d"]


def test_lists_keep_their_numbers_untranslated():
    prepared = prepare("1. First item\n2. Second item\n- third")
    assert prepared.segments == ["First item", "Second item", "third"]
    assert prepared.restore(["A", "B", "C"]) == "1. A\n2. B\n- C"


def test_a_numbered_items_marker_stays_out_of_its_segment_though_its_number_is_an_item():
    """The number is masked before the line is read: "1) Open the file." reached the model as "XX0X) Open the file."
    (600 held-out catalog messages numbered "N) ": chrF 54.36 -> 58.15). A token that is no number is no marker, and
    a numbered item's lines that wrap under its text are one segment, as a bulleted item's are."""
    prepared = prepare("Steps:\n1) Open the file.\n(2) Save it.\n10) Close it.")
    assert prepared.segments == ["Steps:", "Open the file.", "Save it.", "Close it."]
    assert prepared.restore(["Schritte:", "Datei öffnen.", "Speichern.", "Schließen."]) == (
        "Schritte:\n1) Datei öffnen.\n(2) Speichern.\n10) Schließen.")
    assert prepare("%s) is missing").segments == ["XX0X) is missing"]
    assert prepare("1234) is a year").segments == ["XX0X) is a year"]
    for marker in ("1) ", "1. "):
        wrapped = f"{marker}Open the settings window of the program and\n   click the button to save your changes."
        assert prepare(wrapped).segments == [wrapped[3:]]


def test_a_markdown_headings_marks_and_bullets_stay_out_of_the_segment():
    """"###" is an operator's item: "### Emotion" reached the model as "XX0X Emotion" and came back as
    "XX0X-Ausrichtung" (so "###-Ausrichtung", no heading any more; 4 of a Hugo theme's pages' headings). "# Title"
    stays one sentence, its mark the model's to keep, as catalogs' "# comment" lines are."""
    prepared = prepare("### Emotion\n\n#### Block quotes\n\n# Title")
    assert prepared.segments == ["Emotion", "Block quotes", "# Title"]
    assert prepared.restore(["Gefühl", "Zitate", "# Titel"]) == "### Gefühl\n\n#### Zitate\n\n# Titel"
    assert prepare("Press ## twice").segments == ["Press XX0X twice"]  # not at a line's start: no heading
    # "*", "•" and "#" are outside the shipped model's vocabulary, items: "* caption is optional" reached the model as
    # "XX0X caption is optional" and came back as "*-Kontakt ist optional"
    outside = prepare("* caption is optional\n• Second\n# Title\n*emphasis* here", unknown=lambda text: [
        found.span() for found in re.finditer(r"[*•#]", text)])
    assert outside.segments == ["caption is optional", "Second", "Title", "XX0XemphasisXX1X here"]
    assert outside.restore(["Beschriftung ist optional", "Zweite", "Titel", "XX0XBetonungXX1X hier"]) == (
        "* Beschriftung ist optional\n• Zweite\n# Titel\n*Betonung* hier")


def test_a_plain_text_lists_o_bullet_stays_out_of_the_segment():
    """Plain text (package descriptions, manual pages) also marks items with "o": read with its item, it was lost or
    translated ("o Integrated level editor" came back as "Editor für o-Geräte"); of 178 such lines in 55 of Debian's
    package descriptions 115 kept it, now all. Not an "o" inside a line, nor one without a space after it."""
    prepared = prepare("Features:\n  o Integrated level editor\n  o Great music\nAn o ring.\no.")
    assert prepared.segments == ["Features:", "Integrated level editor", "Great music", "An o ring.", "o."]
    dashes = prepare("Either:\n  — provide the argument on the command line\n  — choose one from the list")  # gcloud's
    assert dashes.segments == ["Either:", "provide the argument on the command line", "choose one from the list"]
    assert prepared.restore(["Funktionen:", "Integrierter Level-Editor", "Tolle Musik", "Ein O-Ring.", "o."]) == (
        "Funktionen:\n  o Integrierter Level-Editor\n  o Tolle Musik\nEin O-Ring.\no.")


def test_a_wrapped_sentence_too_long_for_one_segment_is_cut_where_a_sentence_on_one_line_is():
    """At the clause mark (else the space) nearest its middle, not at each line break, which fell wherever the width
    did: "Wput is a tiny ftp-client, that uploads files or directories to a" and "remote ftp-server." came back
    without "uploads" (of 4,560 paragraphs of Debian's package descriptions 1,049 are segmented otherwise, chrF 53.54
    -> 53.93 on them). Each break goes back into its piece's translation, the text's lines as many as the source's."""
    text = "Wput is a tiny ftp-client, that uploads files or directories to a\nremote ftp-server."
    prepared = prepare(text, short=lambda segment: len(segment) <= 60)
    assert prepared.segments == ["Wput is a tiny ftp-client,",
                                 "that uploads files or directories to a\nremote ftp-server."]
    translated = ["Wput ist ein kleiner FTP-Client,", "der Dateien oder Ordner auf einen entfernten FTP-Server hochlädt."]
    assert prepared.restore(translated) == ("Wput ist ein kleiner FTP-Client, der Dateien oder Ordner auf einen "
                                            "entfernten\nFTP-Server hochlädt.")


def test_a_line_break_that_wraps_a_sentence_goes_outside_a_quotation():
    """Put back at the space after an opening quotation mark or before a closing one, the break was taken out with
    the space the model put inside the quotation ("Sie müssen die \"entfernen.old\"": the text lost a line). It goes
    before the opening mark, after the closing one."""
    prepared = prepare('You will need to remove\nthe "old cache" folder.')
    assert prepared.restore(["Entfernen Sie XX0X alten Cache XX1X."]) == 'Entfernen Sie\n"alten Cache".'
    assert prepared.restore(["Den XX0X Cache XX1X entfernen Sie bitte jetzt sofort."]) == \
        'Den "Cache"\nentfernen Sie bitte jetzt sofort.'


def test_an_e_mails_quotation_marks_are_kept_as_list_markers_are():
    """Read with the sentence, ">" cost it its capital: "> I think we should meet" came back as "> ich glaube"."""
    prepared = prepare("> I think we should meet.\n> > Are you sure?")
    assert prepared.segments == ["I think we should meet.", "Are you sure?"]
    assert prepared.restore(["Ich glaube, wir sollten uns treffen.", "Bist du sicher?"]) == \
        "> Ich glaube, wir sollten uns treffen.\n> > Bist du sicher?"
    # A quoted sentence wrapped over lines behind as many marks is one sentence; the marks are blanks to the model.
    prepared = prepare("> I think we should meet\n> at the main office.\n> > Are you\n> sure?")
    assert prepared.segments == ["I think we should meet\n  at the main office.", "Are you", "sure?"]
    assert prepared.restore(prepared.segments) == "> I think we should meet\n> at the main office.\n> > Are you\n> sure?"
    assert prepared.restore(["Ich denke, wir sollten uns im Hauptbüro treffen.", "Bist du", "sicher?"]) == \
        "> Ich denke, wir sollten uns\n> im Hauptbüro treffen.\n> > Bist du\n> sicher?"
    # too long to be one segment, cut at a line break: before it, each line's marks its own (after it, ">" ended the
    # line before, the break went between that line's last two words and the next line lost its space: "> stack."
    # came back as ">Import Stapel.")
    cut = prepare("> and the rest of the import,\n> the stack.", short=lambda segment: "\n" not in segment)
    assert cut.segments == ["and the rest of the import,", "the stack."]
    assert cut.restore(["und der Rest des Imports,", "der Stapel."]) == "> und der Rest des Imports,\n> der Stapel."
    # a list inside a quotation: its bullet is the line's marker too ("> * nushell: add" came back as "> *-Nushell")
    text = "> * fish: `fzf --fish`\n> * nushell: add to your `env.nu`:\n> 2. Then restart it."
    stars = lambda text: [star.span() for star in re.finditer(r"\*", text)]  # a bullet the vocabulary lacks: its item
    for unknown in (lambda text: [], stars):
        listed = prepare(text, unknown=unknown)
        assert listed.segments == ["fish: XX0X", "nushell: add to your XX0X:", "Then restart it."]
        assert listed.restore(listed.segments) == text
    # a ">" inside a line leads nothing
    assert prepare("  ->, --more   print messages with more than\n               two definitions").segments[-1] == \
        "print messages with more than\n               two definitions"


def test_a_sentence_wrapped_over_lines_is_one_segment_and_wrapped_again():
    """A paragraph wrapped to a width, a list item's hanging lines and a help text's description continued under
    it: each sentence goes to the model whole (line by line, "Print CP0 register and HWR names according to
    specified" and "architecture." came back as "CP0-Register und HWR-Namen entsprechend ausgeben" and "Architektur."),
    and its line breaks, with their indentation, go back at the same share of the translation."""
    text = ("It provides command-line tools for\nsearching and managing packages.\n\n"
            "* **apt-get** for retrieval of packages\n  from authenticated sources\n\n"
            "  -m, --move-home   move contents of the home directory to the\n"
            "                    new location (use only with -d)\r\n")
    prepared = prepare(text)
    assert [segment.replace("\n", "|") for segment in prepared.segments] == [
        "It provides command-line tools for|searching and managing packages.",
        "**apt-get** for retrieval of packages|  from authenticated sources",
        "move contents of the home directory to the|                    new location", "use only with XX0X"]
    assert prepared.restore(prepared.segments) == text
    # a number may open the next line ("over\n20 years" was cut into "... with over" and "20 years of development.");
    # a label or a placeholder there stays a line of its own (below)
    wrapped = prepare("Perl is a feature-rich programming language with over\n20 years of development.")
    assert wrapped.segments == ["Perl is a feature-rich programming language with over\nXX0X years of development."]
    assert prepare("Args:\n    config: the model's configuration\n    embed (Embedding): an embedding").segments == [
        "Args:", "config: the model's configuration", "XX0X an embedding"]
    # a subtitle's number and times are no line of text: they set no paragraph's width
    subtitle = "1\n00:00:01,000 --> 00:00:04,000\nI told you never to\ncome back here.\n"
    assert prepare(subtitle).segments == ["I told you never to\ncome back here."]
    translated = prepared.restore(["Es stellt Befehlszeilenwerkzeuge zum Suchen und Verwalten von Paketen bereit.",
                                   "**apt-get** zum Abrufen von Paketen aus beglaubigten Quellen",
                                   "Inhalt des Home-Verzeichnisses an den neuen Ort verschieben", "nur mit XX0X"])
    assert translated == ("Es stellt Befehlszeilenwerkzeuge zum\nSuchen und Verwalten von Paketen bereit.\n\n"
                          "* **apt-get** zum Abrufen von Paketen\n  aus beglaubigten Quellen\n\n"
                          "  -m, --move-home   Inhalt des Home-Verzeichnisses an den neuen Ort\n"
                          "                    verschieben (nur mit -d)\r\n")


@pytest.mark.parametrize("text", [
    "Usage: %s [OPTION]... SOURCE DEST\n  or:  %s [OPTION]... SOURCE... DIRECTORY",  # a usage text's alternatives
    "This line ends a sentence.\nthis one starts in lower case",
    "Supported formats are these:\npng, jpeg and gif",  # a list's heading
    "mismatch on the divert-to target\n  when removing the file",  # another left edge: lines of their own
    "Two spaces end this Markdown line  \nand break it",
    "The file was saved\nSaving took two seconds",  # a capital: a line of its own
    "Only two\nwords here",
    "Choose one of the modes:\n  a) fast\n  b) slow",
    # a list of messages: the next line's first word would have fit on the line within the paragraph's width
    "Lag order %*d\nas the default command for files of type %s?",
    "Couldn't open '%s'\ncreating directory %s failed: no space left",
    "Deleted the files of this folder\n%d files in total",  # a placeholder opens a line of its own
])
def test_lines_that_do_not_wrap_a_sentence_stay_segments_of_their_own(text):
    prepared = prepare(text)
    assert not any("\n" in segment for segment in prepared.segments)
    assert prepared.restore(prepared.segments) == text


def test_a_wrapped_sentence_too_long_for_one_segment_is_translated_line_by_line():
    """The shipped model drops words from long sentences: joined lines over its segment length go as they were
    wrapped (catalog messages: every wrapped sentence joined, 755 changed, chrF 56.23 against 56.216 line by line;
    only those short enough, 507, 56.614 against 56.905)."""
    lines = ["It provides command-line tools for searching and managing as well as querying",
             "information about packages as well as low-level access to all features"]
    short = lambda segment: len(segment.split()) <= 12
    assert prepare("\n".join(lines), short=short).segments == lines
    assert prepare("It provides command-line tools\nfor searching packages", short=short).segments == [
        "It provides command-line tools\nfor searching packages"]
    # A parenthesis across a line break is cut around first: cut into lines, each held one of its marks, which the
    # model dropped ("(i.e. groups that have NoSymbol in" and "all symbol positions) are ignored." came back without
    # the closing one); the words inside are short enough to be one segment, wrapped again.
    text = ("It provides command-line tools for searching, managing and querying packages (as well as low-level\n"
            "access to all features of the package manager) on every system")
    prepared = prepare(text, short=short)
    assert prepared.segments == ["It provides command-line tools for searching, managing and querying packages",
                                 "as well as low-level\naccess to all features of the package manager",
                                 "on every system"]
    assert prepared.glue == ["", " (", ") ", ""] and prepared.restore(prepared.segments) == text


def test_line_breaks_go_back_between_words_in_order_and_never_vanish():
    wraps = [(0.25, "\n"), (0.5, "\n  "), (0.75, "\r\n")]
    assert rewrapped("one two three four five six seven eight", wraps) == \
        "one two\nthree four\n  five six\r\nseven eight"
    assert rewrapped("eins zwei", wraps) == "eins\nzwei\n\r\n"  # one space: the others end the text
    assert rewrapped("eins", [(0.5, "\n   ")]) == rewrapped("eins", [(0.5, "\n> ")]) == "eins\n"
    # where a blank precedes the words, the breaks they have no space for go before them, each with its lead
    assert rewrapped("eins zwei", wraps, before=True) == "\n\n  eins\r\nzwei"
    # never before what would open a block there: "... Aktion - aktivieren" wrapped before "-" made a list item
    assert rewrapped("Die Aktion XX0X - aktivieren und dann", [(0.6, "\n")]) == "Die Aktion XX0X -\naktivieren und dann"
    assert rewrapped("Treffen am 1. Januar um zehn", [(10 / 28, "\n")]) == "Treffen am 1.\nJanuar um zehn"


def test_a_wrapped_sentence_translated_as_one_word_keeps_its_line_break_inside_the_text():
    """"(and others) at the\nsame time." came back as "(und andere) gleichzeitig.\n": the break the one word had no
    space for ended the paragraph, which gained a blank line; it takes the blank before the word instead."""
    text = "Install both (and others) at the\nsame time."
    prepared = prepare(text)
    assert prepared.segments == ["Install both", "and others", "at the\nsame time."]
    assert prepared.restore(["Beide installieren", "und andere", "gleichzeitig."]) == \
        "Beide installieren (und andere)\ngleichzeitig."
    # at the text's start nothing precedes it: it ends the word, and the blank after goes
    prepared = prepare("We install it at the\nsame time (really).")
    assert prepared.restore(["Gleichzeitig", "wirklich"]) == "Gleichzeitig\n(wirklich)."


words = st.sampled_from(["house", "the", "green", "Dr.", "3.5", "a", "I", "ran", "is", "end.", "Yes!", "why?"])
items = st.sampled_from(["%s", "%1$d", "%(name)s", "{0}", "{count}", "{}", "<b>", "</b>", "<br/>", "`x = 1`",
                         "https://example.org/a?b=1", "ann@example.com", "&amp;", "&nbsp;", "&#39;", "&shy;", "XX3X",
                         "XX3", "%%", "/etc/fstab", "~/.config/app/", "../lib", "C:\\Users\\ann.txt",
                         "--no-color", "cc_config.xml", "VirtualBox", "&&", "==", '<a title="x > y">', "</a>",
                         "<!DOCTYPE html>", "\n```\n", "\n~~~ sh\n", "linkgit:git-log[1]", "<<install,the guide>>",
                         "https://example.org[our site]", "{product-name}", "+{x}+",
                         "(a)", "b)", "(ii)", "iii)", "(3)"])  # fences: at a line's start; list markers in a line
separators = st.sampled_from([" ", "  ", "\n", "\n\n", "\t", ". ", ", "])
# Words and items with whitespace or punctuation between them: an item glued to letters ("comXX3X") is
# ambiguous by nature; glued cases that must work are tested one by one below.
pieces = st.lists(st.tuples(st.one_of(words, items), separators), max_size=30).map(
    lambda pairs: [part for pair in pairs for part in pair])


def by_a_hostile_model(prepared: Prepared, mangled: Callable[[str], str]) -> list[str]:
    """Translations of the text's own segments by a hostile "model", of its attribute values copied (translated,
    they are new words in their tags by design)."""
    return [mangled(segment) if index < prepared.own_segments else segment
            for index, segment in enumerate(prepared.segments)]


def protected_items(text: str) -> list[str]:
    return sorted(text[start:end] for start, end in protected_spans(text))


def kept_exactly(text: str) -> list[str]:
    """What is served as placeholders (numbers too) but character references (which the model may read as their
    characters)."""
    return sorted(text[start:end] for start, end in protected_spans(text, EVERYTHING_AND_NUMBERS)
                  if not ONE_REFERENCE.fullmatch(text, start, end))


def read_whole_and_restored(text: str, translation: str, **options) -> tuple[list[str], bool, str]:
    """A one-segment text as prepared: its segments, whether its segment streams piecewise, and the text restored
    from the translation."""
    prepared = prepare(text, **options)
    return prepared.segments, prepared.streams(0), prepared.restore([translation])


def bare_characters(text: str) -> set[str]:
    """The characters of a text outside its character references."""
    return set(ONE_REFERENCE.sub("", text))


@settings(max_examples=int(os.environ.get("TEXT_EXAMPLES", "300")), deadline=None)
@given(pieces, st.randoms(use_true_random=False))
def test_every_protected_item_survives_whatever_the_model_does(parts, rnd):
    text = "".join(parts)
    prepared = prepare(text)
    # identity translation gives the text back as read: a justified paragraph's spread spaces are one (`unjustified`)
    assert prepared.restore(prepared.segments) == unjustified(text)
    # A hostile "model": drops, repeats and shuffles placeholder tokens and words.
    def mangled_segment(segment: str) -> str:
        tokens = segment.split()
        rnd.shuffle(tokens)
        return " ".join([t for t in tokens if rnd.random() > 0.3] + [t for t in tokens if rnd.random() < 0.2])

    mangled = by_a_hostile_model(prepared, mangled_segment)
    result = prepared.restore(mangled)
    assert kept_exactly(result) == kept_exactly(text)
    # A reference the model read comes back as itself, never as its bare character (the model may drop it: a word)
    assert {html.unescape(item) for item in protected_items(text)} & bare_characters(result) <= bare_characters(text)
    assert result.count("\n") == text.count("\n")
    for index, translation in enumerate(mangled):  # each sentence's tags: in source order, or nested as it nests them
        tags = [t.group(0) for t in TAG.finditer(prepared.restore_segment(index, translation))]
        source_tags = [t.group(0) for t in TAG.finditer(prepared.unmask(prepared.segments[index], index))]
        assert tags == source_tags or (sorted(tags) == sorted(source_tags)
                                       and reduced(tags) == reduced(source_tags) is not None)


mixed = st.sampled_from(["house", "THE", "GREEN", "Dr.", "a", "RAN", "END.", "why?", "10", "8,000", "1-64", "x86", "%s",
                         "{0}", "<b>", "</b>", "<br/>", "<p>", "&amp;", "&nbsp;", "&#39;", "&eacute;", "&shy;", "&copy;",
                         ";", "—", "|", "😀", "XX3X", "`c`", "&", "'", "“", "”", "'%s'", "«{0}»", "&&", "->",
                         "<i title='a > b'>", "</i>", "**", "*", "*it*", "**Note:**", "\n```\n",
                         "\\emph{", "}", "\\section{", "\\LaTeX", "~", "\\ref{x}", "%", "$x$", "\\begin{verbatim}",
                         "\\end{verbatim}", "f(x)", "__doc__", "\\n", "'\\n'", "\\href{a}{", "\\fB\\-x\\fR"])


# Opening and closing quotation marks alike, whichever the language: German writes “…” and ‘…’ as »…«
# (german_quotation_marks)
QUOTES_ALIKE = str.maketrans("“‘»”’«", "\x01\x01\x01\x02\x02\x02")


def as_german_writes_it(text: str) -> str:
    """The text without the separators between digits, which German writes otherwise ("8,000": "8.000"), and with
    its quotation marks alike."""
    return re.sub(r"(?<=\d)[.,](?=\d)", "", text).translate(QUOTES_ALIKE)


@settings(max_examples=int(os.environ.get("TEXT_EXAMPLES", "300")), deadline=None)
@given(st.lists(st.tuples(mixed, st.sampled_from([" ", "", "\n", ". ", ", ", "; ", " — ", "\n> "])), max_size=25),
       st.booleans(), st.booleans(), st.booleans(), st.randoms(use_true_random=False))
def test_every_mode_gives_the_text_back_and_survives_whatever_the_model_does(pairs, html, keep, take_out, rnd):
    """Placeholders, numbers, references, capitals, marks between clauses, tags and text that looks like a token, in
    plain text and HTML, with and without placeholders and tags taken out: a model that copies its input gives the
    text back, and one that shuffles and drops words breaks nothing (text like "XX3X" without placeholders raised
    IndexError)."""
    text = "".join(part for pair in pairs for part in pair)
    prepared = prepare(text, preserve_placeholders=keep, html=html, unknown=lambda s: [
        m.span() for m in re.finditer("[;—|😀©]", s)], take_out_tags=take_out)
    if not any(prepared.moved):  # tags taken out go back by alignment only; a number grouped in thousands as German
        assert as_german_writes_it(prepared.restore(prepared.segments)) == as_german_writes_it(text)  # "8.000"
    mangled = by_a_hostile_model(prepared, lambda s: " ".join(
        word for word in rnd.sample(s.split(), len(s.split())) if rnd.random() > 0.3))
    result = prepared.restore(mangled)
    assert all(prepared.unmask(glue).strip(" \t") in result for glue in prepared.glue)  # what is not translated stays
    # segment by segment, as a stream sends them, the same text
    written = [prepared.restore_segment(i, t) for i, t in enumerate(mangled[:prepared.own_segments])]
    assert "".join(prepared.glue_between(i, before, after) + after
                   for i, (before, after) in enumerate(zip(["", *written], [*written, ""]))) == result


@pytest.mark.parametrize("text", ["%s3.5 kilos", "XX3%s here", "Open %shttps://example.org now", "a%%b %d",
                                  "{0}{1} items", "<b>x</b><i>y</i>"])
def test_glued_items_round_trip(text):
    prepared = prepare(text)
    assert prepared.restore(prepared.segments) == text
    result = prepared.restore([" ".join(reversed(s.split())) for s in prepared.segments])
    assert protected_items(result) == protected_items(text)


UNKNOWN = "😀你好—☃"  # what a stand-in vocabulary lacks (the real one: Tokenizer.unknown_spans)


def unknown_runs(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(f"[{UNKNOWN}]+", text)]


@settings(max_examples=int(os.environ.get("TEXT_EXAMPLES", "300")), deadline=None)
@given(st.lists(st.tuples(st.one_of(words, items, st.text(UNKNOWN, min_size=1, max_size=3)), separators), max_size=20),
       st.randoms(use_true_random=False))
def test_characters_outside_the_vocabulary_survive_whatever_the_model_does(pairs, rnd):
    text = "".join(part for pair in pairs for part in pair)
    prepared = prepare(text, unknown=unknown_runs)
    assert not any(char in UNKNOWN for segment in prepared.segments for char in segment)  # the model never sees them
    assert prepared.restore(prepared.segments) == unjustified(text)  # as read: a justified line's spread spaces are one
    result = prepared.restore(by_a_hostile_model(prepared, lambda s: " ".join(rnd.sample(s.split(), len(s.split()))[1:])))
    assert sorted(re.findall(f"[{UNKNOWN}]", result)) == sorted(re.findall(f"[{UNKNOWN}]", text))
    assert kept_exactly(result) == kept_exactly(text)


def test_unknown_characters_and_placeholders_are_numbered_in_reading_order():
    prepared = prepare("— or %s, 😀 at https://example.org/😀 and {n} then 你好", unknown=unknown_runs)
    assert prepared.protected == ["—", "%s", "😀", "https://example.org/😀", "{n}", "你好"]
    assert prepared.segments == ["or XX0X, XX1X at XX2X and XX3X then XX4X"]  # "— " before a clause: kept apart
    only_unknown = prepare("你好 😀", unknown=unknown_runs)
    assert only_unknown.segments == [] and only_unknown.restore([]) == "你好 😀"


FENCED = "```python\nif x > 0:\n\n    print('hello world')  # <b> is code\n```"


@pytest.mark.parametrize("text, segments, protected", [
    (f"Run this:\n\n{FENCED}\n\nThen save the file.", ["Run this:", "Then save the file."], [FENCED]),
    ("~~~\nreturn x;\n~~~\nDone.", ["Done."], ["~~~\nreturn x;\n~~~"]),
    ("  ```sh\n  ls -l\n  ```", [], ["  ```sh\n  ls -l\n  ```"]),  # indented up to 3 spaces
    ("```\nnot closed\n\nto the end", [], ["```\nnot closed\n\nto the end"]),  # as Markdown reads it
    ("```python", [], ["```python"]),  # a fence alone (a text per line)
    ("~~~\na\n```\nb\n~~~", [], ["~~~\na\n```\nb\n~~~"]),  # the other marks do not close it
    # indented as a list item's text is: Docsy's steps ("    ```sh" ... "cd userguide" came back as "CD-Benutzerguid")
    ("1. Clone it:\n\n    ```sh\n    cd userguide\n    ```", ["Clone it:"], ["1", "    ```sh\n    cd userguide\n    ```"]),
    # four marks show Markdown with fences inside: only four or more close them ("````markdown" came back as "``''")
    ("````markdown\n```sh\nls\n```\n````\nDone.", ["Done."], ["````markdown\n```sh\nls\n```\n````"]),
    ("Type ``` to open a code block.", ["Type ``` to open a code block."], []),  # inside a line: no fence
    ("---\ntitle: Getting started\nlayout: page\ntags:\n  - intro\n---\n# Getting started", ["# Getting started"],
     ["---\ntitle: Getting started\nlayout: page\ntags:\n  - intro\n---"]),  # YAML front matter at the start
    # keys inside them are code: read as a configuration file's, a TOML example's values came back translated
    ('Setup:\n\n```toml\nbaseURL = "http://example.org/"\ndefaultContentLanguage = "en"\n```',
     ["Setup:"], ['```toml\nbaseURL = "http://example.org/"\ndefaultContentLanguage = "en"\n```']),
    ("---\ntitle: A\nmath:\n  enable: true\n---\nDone.", ["Done."], ["---\ntitle: A\nmath:\n  enable: true\n---"]),
    ("Intro.\n---\ntitle: x\n---", ["Intro.", "title: x"], []),  # not at the start: rules, or a setext heading
    # Windows line breaks: before, the closing fence "```\r" was not read as one, and the block ran to the text's end
    ("Run:\r\n\r\n```\r\nls -l\r\n```\r\n\r\nThen save.", ["Run:", "Then save."], ["```\r\nls -l\r\n```"]),
    ("---\r\ntitle: x\r\n---\r\n# Hello", ["# Hello"], ["---\r\ntitle: x\r\n---"]),
    # an element it shows is code too: cut at "<script>...</script>", the block's rest and the text after it were kept
    ("Add:\n\n```html\n<script src=\"app.js\"></script>\n<p>Hi</p>\n```\n\nDone.", ["Add:", "Done."],
     ["```html\n<script src=\"app.js\"></script>\n<p>Hi</p>\n```"]),
    # inside a quotation (GitHub's alerts): "> pip install 'numpy<2'" came back as "> Pip-Installation 'Numpy<2'"
    ("> If you see an error, run:\n> ```\n> pip install 'numpy<2'\n> ```", ["If you see an error, run:"],
     ["> ```\n> pip install 'numpy<2'\n> ```"]),
])
def test_a_fenced_code_block_and_front_matter_are_kept_as_written(text, segments, protected):
    """Before, a code block's lines were translated one by one: "if (x > 0) {" came back as "wenn (x > 0) {",
    "return x;" as "Rückgabe x zurückkehren;", "print('hello world')" as "print('hello Welt')", the info string as
    "Python"; front matter's "title:" as "Titel:"."""
    prepared = prepare(text)
    assert prepared.segments == segments and prepared.protected == protected
    assert prepared.restore(prepared.segments) == text
    assert prepare(text, preserve_placeholders=False).protected == []  # --no-placeholders: translated as text


def test_keys_inside_a_comment_are_kept_with_it():
    """Node.js' API pages open each section with YAML in a comment: read as a configuration file's keys, they cut the
    comment, and "added: v0.1.25" came back as "added: v0,1,25", a change's description translated. A comment (a
    CDATA section too) is kept whole with the keys inside; keys outside one stay keys."""
    comment = ("<!-- YAML\nadded: v0.1.25\nchanges:\n  - version: v6.0.0\n    description: Passing a non-string"
               " throws now.\n-->")
    prepared = prepare(comment)
    assert prepared.segments == [] and prepared.protected == [comment]
    prepared = prepare("name: app\nsettings:\n  title: My app\n<!-- note: keep -->")
    assert prepared.segments == ["app", "My app"]
    assert prepared.protected == ["name:", "settings:", "title:", "<!-- note: keep -->"]


def test_an_indented_code_block_of_a_markdown_text_is_kept_as_written():
    """Read, "Run:\n\n    pip install translator" came back as "...\n\n    Rohrisolator", "    cd build\n    make" as
    "    CD-Bildbau\n    treffen <v". Markdown (a heading, a fence or a link) reads lines indented by four columns after
    a blank line as code; a list item's continuation and a plain text's indented lines (a help text's options) are
    translated."""
    text = "# Build\n\nRun:\n\n    cd build\n    make\n\n\tmake install\nThen test it.\n\n- An item.\n\n    More of it."
    prepared = prepare(text)
    assert prepared.protected == ["    cd build\n    make\n\n\tmake install"]
    assert prepared.segments == ["# Build", "Run:", "Then test it.", "An item.", "More of it."]
    assert prepared.restore(prepared.segments) == text
    assert prepare(text, preserve_placeholders=False).protected == []
    options = "Options:\n\n    -h, --help    Show this help.\n    -v            Print more."
    assert prepare(options).segments == ["Options:", "Show this help.", "Print more."]
    assert prepare("[Docs](https://example.org)\n\n    Indented words.").segments == ["XX0XDocsXX1X"]
    assert prepare("A paragraph\n    wrapped, not code.\n\n# Title").protected == []  # no blank line before
    json = '# Data\n\n    {"a": "b"}\n\n{"c": "Save"}'  # a JSON value inside the code is no text (it was cut twice)
    assert prepare(json).segments == ["# Data", "Save"] and prepare(json).restore(["# Daten", "Sichern"]).count("{") == 2


def test_a_paragraph_justified_to_both_margins_is_read_as_its_sentences():
    """nroff justifies a manual page's paragraphs with runs of spaces between words, which separated segments as a
    help text's columns do: "the  structured  coding  model" reached the model word by word. In a paragraph whose
    lines but the last are all as long (of two: the first as wide as a page's text), runs of two or three spaces are
    one space; a table's aligned columns, lines that spaces pad to one width, a table drawn with rules, a label's
    column and a list item's marker stay as written."""
    manual = ("       Michael  Burrows  and  David Wheeler (for the block sorting) and\n"
              "       Peter Fenwick (for the  structured  coding  model  in  the  bzip\n       tool) helped.")
    assert prepare(manual).segments == ["XX0X and XX1X", "for the block sorting", "and",
                                        "for the structured coding model in the bzip\n       tool", "helped."]
    # of two lines, the first as wide as a page's text, spread inside a sentence, the last under its text, spread
    # nowhere ("from  an  index  end-point" came back as "an  Index  Endpunkt")
    spread = "       To undeploy the index from  an  index  endpoint 456 under project example, run\n       this:"
    assert unjustified(spread) == spread.replace("m  an  index  e", "m an index e")
    assert unjustified("           — provide  the argument backup on the command line with a fully\n             "
                       "specified name;").startswith("           — provide the argument")  # a list item's text
    item = " (1)   Create a separate manual page  hierarchy for the package's pages\n       such as"
    assert unjustified(item) == item.replace("page  h", "page h")  # its marker's spaces kept
    for table in ("ByteOrderMask     (1 << 0)\nBitOrderMask      (1 << 1)\nScanlinePadMask   (1 << 3)\n"
                  "ScanlineUnitMask  (1 << 4)",
                  "CARD8:  8-bit unsigned integer   \nCARD16: 16-bit unsigned integer  \nCARD32: 32-bit integer",
                  "│Detail        │Control   │\n│AXN_SKPress   │SlowKeys  │\n"
                  "│AXN_SKAccept  │SlowKeys  │",
                  "    Debian:   http://bugs.debian.org/gcc-defaults and the other bug trackers\n    Upstream: "
                  "http://gcc.gnu.org/bugzilla/",
                  "POLICY-RC.D   Policy layer (/usr/sbin/policy-rc.d) interface of this system:\n"
                  "=============================================================",
                  "This is a win32 version of cpio.  It's meant to be used by the win32-loader\n"
                  "component of Debian-Installer."):
        assert unjustified(table) == table, table
    # nor code: a fence never closed makes the rest of the text code (found by the hostile-model property test, whose
    # fenced item came back with one space)
    code = "\n```\n\nhttps://example.org[our site] house house house house  house\nhouse "
    assert unjustified(code) == code and prepare(code).protected == [code.lstrip("\n")]


def test_a_letter_alone_is_kept_as_written():
    """A protocol's table in a README ("     p     unused, p=pad(n)"): read alone, the model wrote another letter ("p"
    came back as "m", "b" as "s", "g" as "Glättchen"); of 938 such letters in 360 paragraphs of /usr/share/doc 216
    changed, now 8. "I" alone is still read ("ich")."""
    table = "Reply\n     n     STRING8          name\n     p                unused, p=pad(n)"
    prepared = prepare(table)
    assert prepared.segments == ["Reply", "name", "unused, p=XX0X"]  # a call: "pad(n)"; a code in capitals
    assert prepared.restore(["Antwort", "Name", "unbenutzt, p=XX0X"]) == (
        "Antwort\n     n     STRING8          Name\n     p                unbenutzt, p=pad(n)")
    assert prepare("g").segments == [] and prepare("I").segments == ["I"]
    # and so is an appendix's section number before its heading, as a chapter's is
    for heading in ("C.3. Recommended Partitioning Scheme", "A.2.4. Booting from a hard disk", "7.1. Bug reporting"):
        assert prepare(heading).segments == [heading.split(" ", 1)[1]]
    assert prepare("See Section C.4, Device Names in Linux.").segments == ["See Section C.4, Device Names in Linux."]


def test_a_code_in_capitals_alone_is_kept_as_written_but_an_english_word():
    """A spreadsheet's column of airports and currencies: read alone, the model spelled a code anew ("YYC" came back as
    "JJJC", "USD" as "USAD", "AAL" as "ALL", "CEO" as "KEIN"). A word the training data writes in small letters is
    still read ("WARNING", sentence-cased: "WARNUNG"), and so is a code inside a sentence, which the model copies."""
    for code in ("YYC", "USD", "CYUL", "CEO", " AAL\n"):
        prepared = prepare(code)
        assert prepared.segments == [] and prepared.restore([]) == code
    assert prepare("YYC\nYUL\nAirports").segments == ["Airports"]
    assert prepare("WARNING").segments == ["Warning"] and prepare("OK").segments == ["OK"]  # (read sentence-cased)
    assert prepare("Fly from YYC to YUL.").segments == ["Fly from YYC to YUL."]


def test_a_sentence_in_another_language_is_kept_as_written():
    """Real spreadsheets hold other languages: read, a Chinese cell's full-width commas became ASCII ones and its
    English words German ("Microsoft Office" as "Microsoft-Objekt-Objekt"), a Lithuanian label "Naujas projektas"
    came back as "Naujas-Programme", a name the names list lacks, "Debasish Sahoo", as "Debasisch". A segment whose
    letters are mostly outside the Latin script, or of two words or more none of which the training data's English
    side writes, or of one such word alone, is kept; English with a word of another script, or with a foreign word,
    is read."""
    for kept in ("在 MPL-2.0 的基础上，对于使用者，禁止未经授权的商业使用此表格。", "Привет, как дела?",
                 "Naujas projektas", "Debasish Sahoo", "Schleswig-Holstein"):
        prepared = prepare(kept)
        assert prepared.segments == [] and prepared.restore([]) == kept
    assert prepare("The Japanese word 日本語 means Japan.").segments == ["The Japanese word XX0X means Japan."]
    assert prepare("It was a tête-à-tête.").segments == ["It was a tête-à-tête."]
    assert prepare("Hello Debasish Sahoo, welcome.").segments != []
    # one such word alone too, a program's name (KDE's "kdeedu" came back as "Kdeedu", the installation guide's term
    # "tzsetup" as "Zentrier"); not an English word, nor one beside an item ("<b>Monday</b>-<b>Sunday</b>")
    for kept in ("kdeedu", "tzsetup", "Aberdeenshire", "noclobber"):
        assert prepare(kept).segments == [], kept
    assert prepare("Settings").segments == ["Settings"] and prepare("Preferences...").segments != []
    assert prepare("<b>Monday</b>-<b>Sunday</b>", html=True).segments != []


def test_a_sentences_first_word_the_lexicon_does_not_know_is_a_name_where_the_sentence_goes_on():
    """Read, "Conky is a system monitor" came back as "Konky ist ...", "Inkscape is" as "Die Tintencape ist" (of 284
    such first words in two samples of package descriptions German keeps 264, the model kept 216 of them). Not a word
    the lexicon knows, nor one once a prefix or suffix is off, one before a capitalized word (a title's), before a
    word the lexicon does not know (another language's), nor one alone."""
    assert prepare("Conky is a system monitor. Mypy has types.").protected == ["Conky", "Mypy"]
    for read in ("Settings are saved.", "Backupninja Overview", "Backupninja", "Activatable items are listed.",
                 "Metapackage to pull it."):
        assert prepare(read).protected == [], read


def test_a_sentences_first_word_that_says_what_software_it_is_is_a_name_though_the_lexicon_knows_it():
    """Read, "Bacula is a set of programs" came back as "Bakula ist ...", "Phonon is a Qt 5 multimedia API" as "Telefon
    ist ...", "Expect is a tool" as "Erwartet ein Werkzeug", "Canna is a Japanese input method" as "Kann keine ...":
    words the lexicon knows (in small letters, or as English). Not a pronoun's or determiner's sentence, nor one that
    says what the word is in words of no software ("Love is a theme", "Pattern is a set of strings"), or in words any
    subject takes ("Life is a game.", "a system of government", "a software engineering task"), nor a word after
    another in the sentence. A run of capitalized words is one name ("Back In Time"), but a description of words that
    ends in a kind of software ("Image Viewer")."""
    for text, name in (("Bacula is a set of programs to manage backup.", "Bacula"),
                       ("Phonon is the KF5 multimedia API, which provides a layer.", "Phonon"),
                       ("Expect is a tool for automating interactive applications.", "Expect"),
                       ("It works. Canna is a Japanese input method.", "Canna"),
                       ("Transmission is a set of lightweight torrent clients.", "Transmission"),
                       ("Back In Time is a simple frontend for rsync.", "Back In Time")):
        assert prepare(text).protected == [name], text
    for read in ("Love is a theme.", "Pattern is a set of fixed strings.", "This is a tool.", "Here is a library.",
                 "He is a clever player who knows the game.",
                 "The Transmission is a library.", "Description is a sentence that says what your extension does.",
                 "Transmission provides clients.", "Image Viewer is the official image viewer.", "Life is a game.",
                 "Music is a universal language.", "Democracy is a system of government.",
                 "Testing is a software engineering task."):
        assert prepare(read).protected == [], read


def test_a_sentences_subject_in_small_letters_that_the_sentence_says_is_software_is_a_name():
    """Read, "prison is a barcode API" came back as "Gefängnis ist ...", "colord is" as "Farbe ist": words the lexicon
    knows. Not an error message's noun ("archive is compressed"), nor "there"."""
    for text, name in (("prison is a barcode API.", "prison"), ("colord is a system service that manages colors.",
                                                                 "colord")):
        assert prepare(text).protected == [name], text
    for read in ("archive is compressed, but this installation cannot read it.", "there is an existing entry."):
        assert prepare(read).protected == [], read
    # and where the text says it again (it came back as "prison ist ein Barcode-API. Gefängnis kann ...")
    assert prepare("prison is a barcode API. prison can make QR codes.").protected == ["prison", "prison"]


def test_a_word_the_text_names_something_by_is_a_name_everywhere_in_the_text():
    """A text means one thing by a word: where it is a name once, it is a name wherever the text writes it ("Discover
    is a hardware identification system ... Discover provides" came back as "... Entdeckt eine flexible
    Schnittstelle", "Alcatel" as "Alkachel" where a list item starts with it). Not a part of a person's name."""
    text = "Expect is a tool for automating scripts. Expect knows what to wait for. The script tells Expect when."
    assert prepare(text).protected == ["Expect"] * 3
    assert prepare("Siemens, Nokia, Alcatel.\nAlcatel BE5 phones.").protected == ["Alcatel", "Alcatel"]
    assert prepare("Kevin White joined. White is a color.").protected == ["Kevin White"]


def test_a_sentence_in_german_or_another_latin_script_language_is_kept_as_written():
    """Read, "Dies ist ein Test." came back as "Dies ist ungültig.", "Ceci est une phrase en français." as "Ceci sten
    une Phrase, französische Frankreich.": a segment with two function words of German, French, Spanish, Italian,
    Dutch or Portuguese and few of English's is kept, the English sentences beside it are read; English that quotes a
    word of another language, or that writes words those languages share with it, is read."""
    for kept in ("Dies ist ein Test.", "Das Programm konnte die Datei nicht öffnen.",
                 "Ceci est une phrase en français.", "Utilitaire de contrôle du volume sonore.",
                 "Este programa no puede abrir el archivo.",
                 "Het bestand kan niet worden geopend.", "Impossibile aprire il file di configurazione."):
        prepared = prepare(kept)
        assert prepared.segments == [] and prepared.restore([]) == kept, kept
    assert prepare("Open the file. Dies ist ein Test.").segments == ["Open the file."]
    for read in ("The de facto standard is in use.", "It was a tête-à-tête in the café.", "Die Hard is a film.",
                 "The motto is: Je ne regrette rien, and the song is known.", "Set the value in a file.",
                 "It has 585 glyphs per non-SC font, e.g. for MIT et al."):
        assert len(prepare(read).segments) == 1, read


def test_json_data_is_kept_as_written_and_a_catalogs_snippet_is_not_data():
    """An API's answer a spreadsheet's cell holds: read, of an Excel workbook's 834 such cells 541 came back no longer
    JSON ("Kelowna International Airport" as "Kelowna Internationales Airport", keys translated). Data holds a truth
    value or null, or records (an array of objects); a catalog's strings under keys are translated each alone (as
    test_each_string_value_of_a_json_object_is_translated_alone shows). A text that only looks like JSON (braces of a
    placeholder, brackets of a label) is read; one nested deeper than Python's stack reads as text, without an
    error."""
    data = '{"name": "Kelowna International Airport", "city": "Kelowna", "gates": [1, 2], "open": true}'
    records = '[{"from": "PHL", "to": "Philadelphia International Airport", "stars": 4.5}]'
    for text in (data, f"  {data}\n", records, '{"error": "No flight was found", "stops": null}'):
        prepared = prepare(text, html=text == records)
        assert prepared.segments == [] and prepared.restore([]) == text
    assert prepare('{"save": "Save", "open": "Open file", "size": 3}').segments == ["Save", "Open file"]
    assert prepare(data, preserve_placeholders=False).segments != []  # all text, as the option asks
    assert prepare("{count} new messages").segments == ["XX0X new messages"]
    assert prepare("[Threaded comment] Read this.").segments == ["[Threaded comment] Read this."]
    assert prepare('{"name": "Kelowna", "open": true} is the answer.').segments != []
    assert prepare("[" * 5000 + "]" * 5000).segments == []  # no letter: kept anyway


def test_an_indented_program_sent_alone_is_kept_as_written():
    """A reStructuredText literal block after its "::", a plain-text manual's example, which a batch job's paragraphs
    send alone: read, "if __name__ == '__main__':" came back as "wenn __Name__ == '__Min__':", "print(hello)" as
    "Druck(Hallo)", S-Lang's "define echo (text)" as "definieren (Text)" and "if (qualifier_exists (...))" lost a ")".
    Half of its lines or more, comments aside, are Python or of a language with braces; indented prose, a docstring's
    parameters, a list whose items end in ";" and a line that starts like a statement are not. A program that opens a
    Python block or imports may start at the first column (a stripped paragraph: "import os" came back as
    "Einfuhrstutzen")."""
    code = "    # a comment\n    from tqdm import tqdm\n    if __name__ == '__main__':\n        print(hello)\n"
    assert prepare(code).protected == [code.strip()] and prepare(code).segments == []
    assert indented_program("    f(" + ")#" * 100) == []  # a line longer than code's is none (nor backtracking)
    # a terminal's session: "ripgrep 12.1.1 (rev def993bad1)" printed by "$ rg --version" came back as "rrgrep ... (Rev"
    session = "    $ rg --version\n    ripgrep 12.1.1 (rev def993bad1)\n    +SIMD +AVX (runtime)"
    assert prepare(session).protected == [session.strip()]
    assert prepare("    $ 5 is the price\n    of it.").segments == ["$ XX0X is the price\n    of it."]  # no command
    script = "    $ ./benchsuite \\\n          --dir /dev/shm \\\n          | tee runs/summary"  # a path to the command
    assert prepare(script).protected == [script.strip()]
    # indented by no-break spaces (as w3m renders a web page's screen: the Debian Reference's text), after root's "# ",
    # an environment variable's assignment or a test for the command ("$ LANG=C ls" came back as "$ SPRACHE ls")
    for session in ("\xa0\xa0\xa0 $ man 1 bash", "    # apt-get update\n\xa0\xa0\xa0  ...\n    # apt-get install mc",
                    "    $ LANG=C ls -l foo\n    -rw-rw-r-- 1 penguin penguin 0 Oct 16 21:35 foo",
                    "    $ [ 1 = 1 ]; echo $?", "    $ (cd src && make)\n    $ </etc/motd pager"):
        assert prepare(session).protected == [session.strip()], session
    assert prepare("    # Check the size of it").segments == ["# Check the size of it"]  # a comment, or a heading
    assert prepare("  # of users: 5").segments == ["# of users: XX0X"]
    s_lang = ("    define echo (text)\n    {\n       variable fp = stdout;\n"
              "       if (qualifier_exists (\"use_stderr\"))\n         fp = stderr;\n       () = fputs (text, fp);\n"
              "    }\n    echo (\"hello\"; use_stderr);  % to stderr")
    c = ("    /* the entry point */\n    int main(int argc, char *argv[])\n    {\n        struct jpeg_error_mgr jerr;\n"
         "        FILE *fp;\n        if (argc < 2)\n            return 1;\n        else\n            do {\n"
         "            } while (0);\n    }")
    calls = ("    if (png_get_bKGD(png_ptr, info_ptr, &bg))\n       png_set_background(png_ptr, bg,\n"
             "           PNG_GAMMA_FILE, 1/*expand*/, 1);\n    else\n       png_set_background(png_ptr, &mine,\n"
             "           PNG_GAMMA_SCREEN, 0/*do not expand*/, 1);")  # a call over lines
    assignments = ("    a = np.arange(4)\n    lines = [\n        ('linear', '-'),\n    ]\n"
                   "    for method, style in lines:\n        ax.plot(a,\n            label=method, linestyle=style)\n"
                   "    ax.set(\n        title='Percentiles',\n        yticks=a)")  # no configuration file's keys
    for program in (s_lang, c, calls, assignments):
        assert prepare(program).protected == [program.strip()] and prepare(program).segments == [], program
    for prose in ("    These functions were not unlocking the display in all\n    return paths.",
                  "    for more information see:\n    the manual", "    x (int): the value\n    y (int): the other",
                  "    the exact version of GCC;\n    the system type;\n    the options given;",
                  "    if (and only if) you agree\n    to the terms;", "    {see below}\n    for details",
                  "    do\n    it now"):
        assert prepare(prose).segments, prose
    # a help text's option line and its value's choices below it ("--group[=METHOD]  show all items, ...", kept whole)
    help_text = "      --group[=METHOD]  show all items;\n             METHOD={separate(default),prepend,both}\n"
    prepared = prepare(help_text)  # the choices an item ("prepend" came back as "Programm")
    assert prepared.segments[1] == "show all items;"
    assert prepared.protected == ["--group", "{separate(default),prepend,both}"]
    stripped = "import os\nfor root, dirs, files in os.walk(top):\n    print(root, 'consumes')"  # a paragraph's example
    decorated = "@dataclass\n  class C:\n      x: int"
    for program in (stripped, decorated):
        assert prepare(program).protected == [program] and prepare(program).segments == [], program
    for prose in ("remove_option(section, option)\n    Remove the given option.", "import datetime",
                  "if you want it:\nrun make install", "with care:\nthe file is read."):
        assert prepare(prose).segments, prose  # a call's description, one line, prose opening as a block does


def test_icu_message_syntax_is_kept_and_each_choice_is_translated_as_its_sentence():
    """Read, "{count, plural, one {# file} other {# files}}" came back as "{Konto, Plural, eine {# Datei} andere {#
    Dateien}}", which the app's message formatter cannot read. An argument's syntax (plural, select, selectordinal)
    and each "#" are items, and the syntax separates segments, in JSON too; a number's or date's argument, named or
    numbered as Java's MessageFormat numbers them, is one item in its sentence (it cut "You have" from "new
    messages."). A
    choice's message alone is a fragment ("You have {...=0 {no messages}...}." came back as "Du hast du {... {keine
    Nachrichten}...}."): the words of its sentence are read in each message, and the words every translation starts
    and ends with go back out. Such a text streams whole."""
    text = "You have {count, plural, =0 {no messages} one {one message} other {# new messages}}."
    prepared = prepare(text)
    assert prepared.segments == ["You have no messages.", "You have one message.", "You have XX0X new messages."]
    assert prepared.restore(["Sie haben keine Nachrichten.", "Sie haben eine Nachricht.",
                             "Sie haben XX0X neue Nachrichten."]) == (
        "Sie haben {count, plural, =0 {keine Nachrichten} one {eine Nachricht} other {# neue Nachrichten}}.")
    assert prepared.restore(["Keine.", "Eine Nachricht ist da.", "XX0X neue."]) == (  # only the mark shared
        "{count, plural, =0 {Keine} one {Eine Nachricht ist da} other {# neue}}.")
    assert prepared.restore(["Keine", "Eine ist da.", "XX0X neue!"]) == (  # nothing shared: whole sentences
        "{count, plural, =0 {Keine} one {Eine ist da.} other {# neue!}}")
    assert not prepared.streams(0)
    name = prepare("{name} sent you {n, plural, one {a photo} other {# photos}}. Bye.")
    assert name.segments == ["XX0X sent you a photo.", "XX0X sent you XX1X photos.", "Bye."]
    assert name.restore(["XX0X hat Ihnen ein Foto gesendet.", "XX0X hat Ihnen XX1X Fotos gesendet.", "Tschüss."]) == (
        "{name} hat Ihnen {n, plural, one {ein Foto} other {# Fotos}} gesendet. Tschüss.")
    nested = prepare('{"t": "{n, plural, offset:1 one {{g, select, female {She and # other} other {They}}} other '
                     '{Total {sum, number, currency}}}"}')  # arguments inside: each message alone
    assert nested.segments == ["She and XX0X other", "They", "Total XX0X"]  # a number's argument: an item in it
    assert prepare("You have {0,number,integer} new messages.").segments == ["You have XX0X new messages."]
    assert nested.restore(nested.segments).count("{") == 8
    for glued in ("x &amp;{x, select, a {b} other {c}}", 'x ](y){x, select, a {b} other {c}}'):  # the marks would go
        assert not prepare(glued).whole and prepare(glued).restore(prepare(glued).segments) == glued  # in, not out
    for plain in ("{name} and {count} files", "{count, plural, one {x}", "{a, unknown, b {c}}", "{a, plural, one {x} y}"):
        assert not any("plural" in item or "unknown" in item for item in prepare(plain).protected), plain
    deep = "{a, select, x {" * 3000 + "y" + "}}" * 3000  # nested beyond ICU_MAX_DEPTH: text, no recursion error
    assert prepare(deep).restore(prepare(deep).segments) == deep
    assert prepare(text, preserve_placeholders=False).protected == []


def test_a_java_choice_keeps_its_syntax_and_translates_its_messages():
    """Jenkins' "{0,choice,0#days|1#day|1<days}": read, "choice" came back as "Koice" or "Kopf", which Java's
    MessageFormat refuses at run time ("unknown format type"). Its syntax is kept as a plural's, each message a
    segment, a number's argument in it an item."""
    days = prepare("{0} {0,choice,0#days|1#day|1<days}")
    assert days.segments == ["days", "day", "days"]
    assert days.restore(["Tage", "Tag", "Tage"]) == "{0} {0,choice,0#Tage|1#Tag|1<Tage}"
    builds = prepare("Failed to stop {0,choice,1#{0,number,integer} build|1<{0,number,integer} builds} of {1}.")
    assert builds.segments == ["Failed to stop", "XX0X build", "XX0X builds", "of XX0X."]
    assert builds.restore(["Nicht gestoppt", "XX0X Build", "XX0X Builds", "von XX0X."]) == (
        "Nicht gestoppt {0,choice,1#{0,number,integer} Build|1<{0,number,integer} Builds} von {1}.")
    for plain in ("{0,choice,no limit} here", "an open {0,choice,1#a|2#b", "{0,choice,-\u221e#none|0.5<half}"):
        assert prepare(plain).restore(prepare(plain).segments) == plain


def test_a_text_read_as_icu_sentences_streams_its_translation_whole():
    from pathlib import Path

    from service.texts import Texts
    from translator.model_format import Limits
    from translator.text import segment_texts
    from translator.tokenizer import Tokenizer

    tokenizer = Tokenizer.from_dir(Path(__file__).parent.parent / "model" / "default")
    texts = Texts(*segment_texts(["Go. You have {n, plural, one {a file} other {# files}}."], tokenizer,
                                 Limits(256, 256, 24)))
    streamer = texts.streamer(tokenizer)
    assert streamer.push(1, tokenizer.encode("Sie")) == []
    pieces = [piece for sequence, german in enumerate(["Geh.", "Sie haben eine Datei.", "Sie haben XX0X Dateien."])
              for piece in streamer.finish(sequence, pb.Translation(text=german))]
    assert [piece for _, piece, _ in pieces] == ["Geh. Sie haben {n, plural, one {eine Datei} other {# Dateien}}."]
    assert pieces[-1][2].text == pieces[-1][1]


def test_a_translated_pages_language_says_german():
    """A translated page's '<html lang="en">' still said English (screen readers pronounce the text by it, search
    engines index it by it). In HTML every lang or xml:lang saying English says German, known before translating:
    streamed pieces carry it, and the text still streams sentence by sentence. Another language, an element not to
    be translated, hreflang and plain text keep theirs."""
    text = ('<html lang="en-US"><p xml:lang=\'en\'>Hello world.</p><p lang="fr">Merci beaucoup.</p>'
            '<code lang="en">x = 1</code><a hreflang="en" href="/en">Home</a></html>')
    prepared = prepare(text, html=True)
    assert not prepared.whole and prepared.segments == ["Hello world.", "XX0XHomeXX1X"]  # French: not English
    assert prepared.restore(["Hallo Welt.", "XX0XStartXX1X"]) == (
        '<html lang="de"><p xml:lang=\'de\'>Hallo Welt.</p><p lang="fr">Merci beaucoup.</p><code lang="en">x = 1</code>'
        '<a hreflang="en" href="/en">Start</a></html>')
    assert prepared.unmask(prepared.glue[0]) == '<html lang="de"><p xml:lang=\'de\'>'
    with_title = prepare('<p lang="en-GB" title="A cat">Hello world.</p>', html=True)
    assert with_title.restore(["Hallo Welt.", "Eine Katze"]) == '<p lang="de" title="Eine Katze">Hallo Welt.</p>'
    assert prepare('<p lang="en">Hello world.</p>').restore(["Hallo Welt."]) == '<p lang="en">Hallo Welt.</p>'


def test_attribute_values_a_reader_sees_are_translated_into_their_tags():
    """Inside their tag's item they stayed English: '<img alt="A cat sleeping on the sofa">', '<input
    placeholder="Enter your name">'. An image's alternative text, a tooltip, a field's hint, a label read aloud and a
    button's caption are texts of their own, whose segments follow the text's; their translations go into the tags
    (a quotation mark the model writes spelled as a reference), and such a text streams whole, and so do a page's
    description and keywords. Not in code, a comment, an element not to be translated or a field's value, nor a meta
    tag's other contents; with placeholders and HTML off, tags are text."""
    from pathlib import Path

    from service.texts import Texts
    from translator.model_format import Limits
    from translator.text import segment_texts
    from translator.tokenizer import Tokenizer

    text = ('<p>Click <a href="/" title="Go to the start page">Home</a>.</p><img alt=\'A cat\' src="c.png"> '
            '<input type="text" value="abc" placeholder="Your name"><input type="submit" value="Send">')
    prepared = prepare(text, html=True)
    assert prepared.segments == ["Click XX0XHomeXX1X.", "Go to the start page", "A cat", "Your name", "Send"]
    assert prepared.whole and not prepared.streams(0)
    assert prepared.restore(["Klicken Sie auf XX0XStartXX1X.", 'Zur "Startseite"', "Eine Katze", "Ihr Name",
                             "Senden"]) == (
        '<p>Klicken Sie auf <a href="/" title="Zur &quot;Startseite&quot;">Start</a>.</p><img alt=\'Eine Katze\' '
        'src="c.png"> <input type="text" value="abc" placeholder="Ihr Name"><input type="submit" value="Senden">')
    plain = prepare('Click <a href="/" title="Go to the start page">Home</a>.')  # plain text's tags too
    assert plain.segments == ["Click XX0XHomeXX1X.", "Go to the start page"]
    assert plain.restore(["Klicken Sie auf XX0XStartXX1X.", "Zur Startseite"]) == (
        'Klicken Sie auf <a href="/" title="Zur Startseite">Start</a>.')
    for kept in ('<code><img alt="A cat"></code>', '<img translate="no" alt="A cat">', '`<img alt="A cat">`',
                 '<!-- <img alt="A cat"> -->', '<img alt="42">', '<img data-title="A cat">',
                 '# Pets\n\n    <img alt="A cat">', '<img alt="{{ _(\'A cat\') }}">',  # indented code, a template
                 '<button type="submit" value="A cat">'):  # a button element's value is not shown
        assert not prepare(kept, html=True).shown, kept
    assert prepare('<p>Item 5 <img alt="A cat"></p>', html=True).segments[-1] == "A cat"  # one item with the 5
    # what search engines and link previews show: a description, keywords, Open Graph's and Twitter's texts
    head = ('<meta name="description" content="How to install it."><meta property="og:title" content=\'Installing\'>'
            '<meta itemprop="keywords" content="install,setup"><meta http-equiv="refresh" content="0; URL=a.html">'
            '<meta name="viewport" content="width=device-width">')
    prepared = prepare(head, html=True)
    assert prepared.segments == ["How to install it.", "Installing", "install,setup"]
    assert prepared.restore(["So wird es installiert.", "Installation", "installieren,einrichten"]) == head.replace(
        "How to install it.", "So wird es installiert.").replace("Installing", "Installation").replace(
        "install,setup", "installieren,einrichten")
    assert prepare('<img alt="A cat">', preserve_placeholders=False).segments == ['<img alt="A cat">']

    tokenizer = Tokenizer.from_dir(Path(__file__).parent.parent / "model" / "default")
    texts = Texts(*segment_texts(['Look. <img alt="A cat"> Nice.'], tokenizer, Limits(256, 256, 24)))
    streamer = texts.streamer(tokenizer)
    assert streamer.push(0, tokenizer.encode("Schau")) == []
    pieces = [piece for sequence, german in enumerate(["Schau.", "XX0X Schön.", "Eine Katze"])
              for piece in streamer.finish(sequence, pb.Translation(text=german))]
    assert [piece for _, piece, _ in pieces] == ['Schau. <img alt="Eine Katze"> Schön.']


def test_a_steps_order_is_read_apart_and_placed_as_german_places_it():
    """Read with the adverb that orders it, the model lost a step's words ("After that, enter your password." came back
    as "Nach dem", "First, close all windows." as "Erste Fenster."). The step is read alone, streamed whole, and its
    adverb goes after a polite imperative and its pronoun, else before the step; not before what is no verb, in a
    question, or without its comma ("Next step"; "Then click Save." came back well)."""
    for text, read, translation, restored in (
            ("First, open the menu.", "Open the menu.", "Öffnen Sie das Menü.", "Öffnen Sie zuerst das Menü."),
            ("Then, try again.", "Try again.", "Versuchen Sie es erneut.", "Versuchen Sie es dann erneut."),
            ("Then, click Save.", "Click Save.", "Speichern klicken.", "Dann Speichern klicken."),
            ("Next, connect it.", "Connect it.", "Das Kabel verbinden.", "Als Nächstes das Kabel verbinden."),
            ("After that, remove it.", "Remove it.", "Entferne die Datei.", "Danach entferne die Datei."),
            ("Finally, log in.", "Log in.", "An Ihrem Konto anmelden.", "Schließlich an Ihrem Konto anmelden.")):
        prepared = read_whole_and_restored(text, translation, preserve_placeholders=False)
        assert prepared == ([read], False, restored), text
    for text in ("First, we open the menu.", "Then the file opens.", "Next step", "Now, what is it?",
                 "First time here", "Finally, the update failed.", "Now, let's go.", "Then click Save.",
                 "Now, exiting the app.", "Finally, four pages."):
        prepared = prepare(text, preserve_placeholders=False)
        assert prepared.segments == [text] and prepared.restore(prepared.segments) == text, text
    assert prepare("Finally, click Save.").segments == ["Click XX0X.", "Save"]  # not the set phrase "Finally,"
    assert prepare("Finally, the update failed.").segments == ["XX0X, the update failed."]


def test_a_clause_after_a_semicolon_or_a_dash_goes_on_in_small_letters():
    """Marks between clauses are items, so the model read each clause alone and started it with a capital ("It
    failed; please try again." came back as "Es ist fehlgeschlagen; Bitte versuchen Sie es erneut."): a first word
    that is never a noun goes back to small letters where the source's is in them, streamed whole; a noun, the polite
    "Sie", a clause from a capital and a menu's "|" keep theirs."""
    from pathlib import Path

    from service.texts import Texts
    from translator.model_format import Limits
    from translator.text import segment_texts
    from translator.tokenizer import Tokenizer

    tokenizer = Tokenizer.from_dir(Path(__file__).parent.parent / "model" / "default")
    cases = {"It failed; please try again.": (["Es ist fehlgeschlagen", "Bitte versuchen Sie es erneut."],
                                              "Es ist fehlgeschlagen; bitte versuchen Sie es erneut."),
             "It is down — the file is gone.": (["Es ist aus", "Die Datei ist weg."],
                                                "Es ist aus — die Datei ist weg."),
             "It failed; data is lost; you may retry.": (
                 ["Es ist fehlgeschlagen", "Daten sind verloren", "Sie können es erneut versuchen."],
                 "Es ist fehlgeschlagen; Daten sind verloren; Sie können es erneut versuchen."),
             "It failed; The file is gone.": (["Es ist fehlgeschlagen", "Die Datei ist weg."],
                                              "Es ist fehlgeschlagen; Die Datei ist weg."),
             "Home | the shop": (["Start", "Der Laden"], "Start | Der Laden")}
    for text, (translations, restored) in cases.items():
        texts = Texts(*segment_texts([text], tokenizer, Limits(256, 256, 24)))
        assert len(texts.prepared[0].segments) == len(translations), text
        streamer = texts.streamer(tokenizer)
        pieces = [piece for sequence, german in enumerate(translations)
                  for piece in streamer.finish(sequence, pb.Translation(text=german))]
        assert "".join(piece for _, piece, _ in pieces) == restored == texts.prepared[0].restore(translations), text


def test_a_labels_mnemonic_marker_is_kept_where_the_model_lost_it():
    """Qt's "&File" came back as "Datei", "Skip &All" as "Alle überspringen", "E&xit" as "E&xt", "Copy &Username" as
    "& Benutzername kopieren" (the training data drops the markers). One at a word's start is read; one inside a word
    is not, nor GTK's "_", which the vocabulary lacks (served as a token, "_Add to Bookmarks" came back as "_ Zu
    Lesezeichen hinzufügen"); where the translation has none, it goes back: in the word the translation keeps, else
    before the same letter, else before the first letter. Names ("Drag&Drop", "AT&T", "http_proxy"), strftime's "%_H"
    and texts with other "&" or "_" are no labels."""
    cases = {"&File": ("&File", "Datei", "&Datei"), "E&xit": ("Exit", "Beenden", "&Beenden"),
             "Skip &All": ("Skip &All", "Alle überspringen", "&Alle überspringen"),
             "Mount a DVD-&RAM": ("Mount a DVD-&RAM", "DVD-RAM einhängen", "DVD-&RAM einhängen"),
             "Save _As": ("Save As", "Speichern _unter", "Speichern _unter"),  # the model's own: kept
             "_Add to Bookmarks": ("Add to Bookmarks", "Zu Lesezeichen hinzufügen", "_Zu Lesezeichen hinzufügen"),
             "&amp;Open %s": ("&Open XX0X", "XX0X öffnen", "%s &amp;öffnen")}  # as the text spells it
    cases["Exit E&xit"] = ("Exit Exit", "Exit Exit", "Exit E&xit")  # the word as often as in the source: its place
    # a marker the model wrote before a space marks no letter: it goes where one would have gone without it
    cases["Copy &Username"] = ("Copy &Username", "& Benutzername kopieren", "Ben&utzername kopieren")
    cases["Form &Preview"] = ("Form &Preview", "&Formular-&Vorschau", "&Formular-Vorschau")  # its first of two
    # LibreOffice's "~", read as GTK's "_" ("S~pacing to left margin:" came back as "S~pacing nach linkser Rand:")
    cases["S~pacing to left:"] = ("Spacing to left:", "Abstand nach links:", "~Abstand nach links:")
    cases["Find & Rep~lace"] = ("Find & Replace", "Suchen & Ersetzen", "~Suchen & Ersetzen")  # its "&" is a word
    # and GTK's "_" inside a word that is one without it (LibreOffice's "E_xport" came back as it was)
    cases["E_xport"] = ("Export", "Exportieren", "E_xportieren")
    cases["Ad_just columns"] = ("Adjust columns", "Spalten anpassen", "_Spalten anpassen")
    for text, (segment, translation, restored) in cases.items():
        assert read_whole_and_restored(text, translation) == ([segment], False, restored), text
    for text in ("Drag&Drop files", "AT&T", "R&D", "Set http_proxy", "Tom & Jerry", "&Open & close", "a && b",
                 "One &two three four five six seven eight nine", "same as %_H", "See ~alice/notes", "~5 km"):
        assert prepare(text).accelerators == [None], text
    underscores = lambda text: [m.span() for m in re.finditer("_", text)]  # noqa: E731 - as the shipped vocabulary
    served = prepare("Color _name:", unknown=underscores)
    assert served.segments == ["Color name:"] and served.restore(["Farbname:"]) == "Farb_name:"
    for identifier in ("http_proxy", "file_name", "user_id"):  # no word, or two words in small letters
        assert prepare(f"Set {identifier}", unknown=underscores).protected == [identifier]
    for text in ("½_Add", "&frac12;_Add Tools", "Ⅳ_x"):  # a letter to the pattern, none to a word (it raised)
        assert not any(prepare(text, unknown=underscores).accelerators), text
    assert prepare("<b>&amp;File</b>", html=True).accelerators == [None]


def test_an_identifier_from_an_underscore_is_kept_as_written():
    """The vocabulary lacks "_": read as a token glued to a word, the model translated the word ("The _start symbol"
    came back as "Das _Startsymbol", "__atomic built-in functions" as "__atomische ..."), and a sentence read as a
    label lost its identifier to another word ("Call _exit to quit the program." as "B_eenden Sie das Programm ...").
    A label's marker and an emphasis's words are none; a text of one line with a comma between words is no label."""
    underscores = lambda text: [m.span() for m in re.finditer("_", text)]  # noqa: E731 - as the shipped vocabulary
    cases = {"Call _exit to quit the program.": ["_exit"], "Use the _Bool type for flags.": ["_Bool"],
             "The _start symbol is the entry point.": ["_start"],
             "library providing __atomic built-in functions.": ["__atomic"],
             "Define _GNU_SOURCE or __STDC_VERSION first.": ["_GNU_SOURCE", "__STDC_VERSION"],
             "Use _exit, not exit, in the child": ["_exit"]}  # a comma: no label (none of the catalogs' 225 has one)
    for text, names in cases.items():
        prepared = prepare(text, unknown=underscores)
        assert prepared.protected == names and prepared.accelerators == [None], text
    assert prepare("Call _exit to quit the program.").restore(["Rufen Sie XX0X auf, um zu beenden."]) == \
        "Rufen Sie _exit auf, um zu beenden."
    for text in ("This is _not_ a good idea.", "It is __very important__ here.", "$_POST data"):
        assert not any(re.match("_+[a-zA-Z]", item) for item in prepare(text, unknown=underscores).protected), text
    for label, read in {"_Open": "Open", "Show _hidden files": "Show hidden files"}.items():  # a label's marker
        prepared = prepare(label, unknown=underscores)
        assert prepared.protected == [] and prepared.segments == [read], label


def test_a_percent_sign_doubled_by_the_model_is_one_again():
    """Catalogs escape a percent sign in printf's way, and the model learned it: "grew by 2.5% last year" came back as
    "grau von 2.5%%". Where the source has two together, they stay."""
    prepared = prepare("Growth was 2.5% last year.")
    assert prepared.restore(["Das Wachstum war XX1X XX0X%%."]) == "Das Wachstum war letztes Jahr 2,5%."
    assert not prepared.streams(0)  # a piece could end between the two
    assert prepare("50%% done", preserve_placeholders=False).restore(["50%% fertig"]) == "50%% fertig"
    assert prepare("50% done", preserve_placeholders=False).restore(["50%% fertig"]) == "50% fertig"


def test_a_list_inside_a_line_is_cut_at_its_markers_which_are_kept():
    """Read whole, the model lost items and translated markers ("a) open the file b) save it c) close it" came back as
    "a) Datei b) öffnen", "either a) restart" as "entweder ein) Neustarten"). Two markers or more in sequence; a
    marker that starts its line stays the line's list marker."""
    prepared = prepare("a) open the file b) save it c) close it")
    assert prepared.segments == ["open the file", "save it", "close it"]
    assert prepared.restore(["die Datei öffnen", "speichern", "schließen"]) == "a) die Datei öffnen b) speichern c) schließen"
    assert prepare("Steps: (1) download it, (2) install it.").segments == ["Steps:", "download it,", "install it."]
    for text in ("plan b) works", "f(x) and g(y)", "a) yes c) no", "x (see a) and y (see b) here"):
        assert prepare(text).protected == [], text
    assert prepare("a) open the file\nb) save it").segments == ["open the file", "save it"]
    assert prepare("1) open the file\n2) save it").protected == ["1", "2"]  # numbers: the lines' markers


def test_a_number_in_small_roman_numerals_is_a_list_marker_or_an_enumerator():
    """A license's "ii." and "(iv)" were read as words: " ii. moral rights" came back as " Ii. moralische Rechte",
    "iii." as "Iiii.", "clause (ii) above" as "wie beschrieben (i).". At a line's start such a number is the line's
    marker, in a sequence inside a line an enumerator as letters and digits are, in parentheses an item; not a word
    that ends a sentence ("at ii."), nor letters in sequence ("(h) ... (i)")."""
    licence = prepare("  i. the right;\n ii. moral rights;\niii. publicity;\n iv. fair competition;\n ix. data.")
    assert licence.segments == ["the right;", "moral rights;", "publicity;", "fair competition;", "data."]
    assert licence.glue[:3] == ["  i. ", "\n ii. ", "\niii. "]
    inline = prepare("You must (i) keep the notice, (ii) state the changes and (iii) include the license.")
    assert inline.segments == ["You must", "keep the notice,", "state the changes and", "include the license."]
    assert inline.protected == ["(i)", "(ii)", "(iii)"]
    assert prepare("See clause (ii) above.").protected == ["(ii)"]
    assert prepare("He was at ii. Then left.").segments == ["He was at ii.", "Then left."]
    assert prepare("Use (h) or (i) here.").protected == ["(h)", "(i)"]  # letters, as before
    # a letter beside a numeral of several follows none: the Apache License's "(a) ... (iii)" failed with INTERNAL
    assert prepare("Do (a) this, (b) that and (iii) more.").segments == ["Do", "this,", "that and", "more."]


def test_a_list_of_codes_in_capitals_comes_back_as_written():
    """Read, the model spelled listed codes anew, dropped them or translated the words among them: of 581 such codes in
    3,000 package descriptions 41 came back lost or changed ("SUNMD5" as "SONNENMD5", "TWOFISH" as "ZWEIFISH", "CP850"
    lost), now none. Shouted words are read as before."""
    hashes = prepare("It supports DES, MD5, NTHASH, SUNMD5, SHA-2-256, SHA-2-512, and\nbcrypt-based password hashes")
    assert hashes.protected == ["DES", "MD5", "NTHASH", "SUNMD5", "SHA-2-256", "SHA-2-512"]
    assert hashes.segments == ["It supports XX0X, XX1X, XX2X, XX3X, XX4X, XX5X, and\nbcrypt-based password hashes"]
    assert prepare("Audio: OGG, MP3, WAV, RA, AC3, AU or AIFF files.").protected == [
        "OGG", "MP3", "WAV", "RA", "AC3", "AU", "AIFF"]
    assert prepare("Codes:\n  CP437, CP850,\n  CP852 and more.").protected == ["CP437", "CP850", "CP852"]
    # across lists, the letters outside them decide whether the text is shouted
    formats = prepare("Full: BMP, EPS (with ghostscript), GIF, IM, JPEG,\n  MSP, PDF, PNG.\nRead: ARG, CUR, DCX, FLI.")
    assert {"GIF", "MSP", "PNG", "ARG", "FLI"} <= set(formats.protected)
    for read in ("Do not REMOVE, MOVE, OR RENAME it.", "WARNING: FILE, FOLDER, DRIVE ARE GONE", "READ, WRITE, EXECUTE",
                 "Use MP3 or OGG files.", "AB, CD"):
        assert prepare(read).protected == [], read


def test_an_abbreviation_after_what_it_abbreviates_comes_back_as_written():
    """Alone between parentheses, an abbreviation was read as a word where the training text writes it in small
    letters: "(IMAP)" came back as "(EINRASTEN)", "(NUT)" as "(ANZAHL)"; of 229 after the words they abbreviate in
    3,000 package descriptions 31 were lost or changed, now none. Its letters must be the words' first letters or
    capitals, in order, the last among the last word's."""
    for text, abbreviation in (("the Internet Message Access Protocol (IMAP).", "IMAP"),
                               ("Network UPS Tools (NUT) is a client", "NUT"), ("Encapsulated PostScript (EPS)", "EPS"),
                               ("an Object-Oriented (OO) thread", "OO"), ("SSH File Transfer Protocol (SFTP)", "SFTP"),
                               ("Don't Repeat Yourself (DRY)", "DRY")):
        assert abbreviation in prepare(text).protected, text
    for text in ("secure shell (SSH) server", "RSA SecurID 128-bit (AES) tokens", "Caps Lock (ON)", "Press Yes (YES)",
                 "the Internet Message Access (IMAP)", "(IMAP) alone"):
        assert not {"SSH", "AES", "ON", "YES", "IMAP"} & set(prepare(text).protected), text
    assert prepare("the Internet Message Access Protocol (IMAP).").segments == [
        "the XX0X (XX1X)."]  # with its sentence: no longer a segment of its own


def test_what_an_abbreviation_abbreviates_in_capitalized_words_is_a_name():
    """A protocol's, a format's or a standard's name the abbreviation beside it spells ("Unified Modeling Language
    (UML)", "CLR (Common Language Runtime)"): German keeps 92 of the 110 before one in two samples of package
    descriptions, and read, the model translated 105 ("Einheitliche Modellierungssprache"). Not words in small
    letters, nor words that do not spell it, nor a sentence's first word its letters leave out."""
    for text, protected in (("The Internet Message Access Protocol (IMAP) is a method.",
                             ["Internet Message Access Protocol", "IMAP"]),
                            ("It writes Portable Document Format (PDF) files.", ["Portable Document Format", "PDF"]),
                            ("Mono provides a complete CLR (Common Language Runtime).", ["Common Language Runtime"]),
                            ("an uninterruptible power supply (UPS)", ["UPS"]),
                            ("the Web Service (IMAP) and KDE (Kool Desktop)", []),
                            ("Network UPS Tools (NUT) is a client", ["Network UPS Tools", "NUT"])):
        assert prepare(text).protected == protected, text


@pytest.mark.parametrize("segment, codes", [
    ("The XMPP client for KDE uses SSL, FAT32 and XMPP.", ("XMPP", "KDE", "SSL", "FAT32")),  # each once, in order
    ("ARM64-based boards and XX0X on USA maps", ("ARM64", "USA")),  # a placeholder token is none
    ("Qt5 on A4 paper since udev v244, and x86", ("Qt5", "A4", "v244", "x86")),  # letters and digits
    ("Press the Ok key or Ctrl, I said", ()),  # one capital: a word
    ("WARNING: DO NOT unplug the USB stick", ()),  # more words in capitals than not: they are words
    ("DELETE ALL FILES?", ()), ("", ())])
def test_the_codes_a_segment_reads_are_what_its_translation_must_hold(segment, codes):
    assert read_codes(segment) == codes


def test_a_number_in_capital_roman_numerals_comes_back_as_written():
    """Read, the model changed capital Roman numerals as it did digits: in an FCC order's Word document 118 of 340
    came back lost or changed ("Title II" as "Titel III"), now 1. Two numerals or more, not "I", a word ("VIVID") or
    one glued to letters ("IIa")."""
    assert prepare("Title II of the Act").segments == ["Title XX0X of the Act"]
    assert prepare("Henry VIII had six wives, World War II ended and XIV was out.").protected == ["VIII", "II", "XIV"]
    assert prepare("II. Background").segments == ["Background"]
    for read in ("I saw it.", "VIVID colors", "Section IIa", "in SIXTH place"):
        assert prepare(read).protected == []


# The hostile texts of the linear-time tests below, each sized by `n(count)` (the count divided by the test's scale)
HOSTILE_TEXTS = r"""
texts = ('---\n' + 'a: b\n' * n(5000), '---\n' + '-a: b\n' * n(5000), '```a\n' * n(5000),
         'a:' * n(200_000), 'a' * n(200_000) + ' é', '"ab": "' * n(40_000), '"a": [' + '"b", ' * n(30_000),
         '{a, plural, one {' * n(20_000), '{a, plural, ' + 'one {#} ' * n(20_000) + '}',
         '"a": [\n' + '  "b",\n' * n(20_000), 'a {n, plural, one {x} other {y}} ' * n(10_000),
         '# A\n\n' + 'See <img alt="A b">\n\n    <img alt="c">\n\n' * n(8_000),
         'k=v\n' * n(20_000) + 'en:\n' + '  a:\n    b: "c"\n' * n(10_000),
         '[b=' + ' x=' * n(50_000), '[color=red' * n(20_000), 'http://[' * n(20_000),
         'Run <code x="1">Ctrl+C ' + '-' * 80 + ' x</code>.',
         "Say '" + '-`' * 99 + "a' now.", "Say '" + '+' * 198 + "a' now.",
         '\\[' + 'a line\n' * 60, 'x][] ' * n(40_000), 'a ' + 'Mr. Zorb met Zorb ' * n(60_000),
         'on Friday, in 1998, ' * n(20_000), '"I will come," she said. ' * n(10_000),
         'nearly 1,000 ' * n(30_000), 'Click Save, ' * n(40_000), 'Ctrl+' * n(40_000) + ' ',
         'a.+' * n(40_000), 'a_b+' * n(30_000), 'A&' * n(60_000), 'A ' * n(60_000), 'AB, CD and ' * n(30_000) + 'x',
         'Aa Bb (AB) ' * n(30_000))
unknown = lambda text: [(i, i + 1) for i, c in enumerate(text) if c in '_~']
calls = [(text, {}) for text in texts] + [
    ('<pre class="screen">\n' + '-' * 80 + '\n  n  time(B)\n</pre>', {'html': True}),
    ('<!x [a' * n(40_000), {'html': True})] + [
    (text, {'unknown': unknown}) for text in ('A_b ' * n(20_000), 'X' + '_x' * n(60_000), 'S~' + 'x' * n(100_000))]
"""
# How long one hostile text may take (the slowest reads in ~2 s at a quarter of the sizes on 2 busy cores, ~8 s whole)
HOSTILE_SECONDS = {4: 10, 1: 40}


def read_hostile_texts(scale: int) -> None:
    """Prepare each of `HOSTILE_TEXTS` in a child process, failing on the first that takes over its seconds."""
    import subprocess
    import sys

    script = ("import signal, sys\nfrom translator.text import prepare\n"
              f"n = lambda count: count // {scale}\n{HOSTILE_TEXTS}"
              "for text, options in calls:\n"
              "    def over(*_): sys.exit(f'over {limit} s: {text[:60]!r}... ({len(text):,} characters)')\n"
              f"    limit = {HOSTILE_SECONDS[scale]}\n"
              "    signal.signal(signal.SIGALRM, over)\n"
              "    signal.alarm(limit)\n"
              "    prepare(text, **options)\n"
              "    signal.alarm(0)\n")
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert child.returncode == 0, child.stderr


def test_texts_that_backtracked_are_read_in_linear_time():
    """Front matter that never closes backtracked exponentially ("." is DOTALL in EVERYTHING: 20 "a: b" lines took
    0.05 s, 40 never ended), and so did a tag's item with a line of dashes (Valgrind's manual: 28 took 2.6 s, its 80
    never ended), a quotation of code spans between marks (40 "-`" took 4.5 s) or of a run of "+" (60: 48 ms, each
    10 more 5x) and lines after a Markdown "\\[" (20: 63 ms, each 2 more 4x); a collapsed reference link's end
    looked back for its start over every item before it ("x][] " * 4,000: 3.5 s); a function call's pattern was
    tried after every colon ("a:" * 16,000: 1.9 s, so 200,000 would take ~5 min; linear, 0.1 s); each capitalized
    run was checked against every titled name before it ("Mr. Zorb met Zorb " * 4,000: 1.2 s, * 60,000 would take
    ~4 min; linear, 1.2 s); every item was searched for forms in all the text's forms ("on Friday, " * 10,000: 3.6
    s; linear, 0.5 s), and each number of an item of forms in all its forms ("nearly 1,000 " * 20,000: 53 s; linear,
    2.8 s), and each unquoted label's text searched for a word in small letters ("Click Save, " * 8,000: 14 s; once
    per text, 0.01 s), and each unknown "_" asked whether it is a label's marker ("A_b " * 3,000: 3.8 s; once per
    text, 0.13 s), and a document type's declarations were searched to the text's end from every "<!x [" ("<!x [a" *
    5,000: 6 s), and a relative path, a name in parts or a manual page's name from every "+" ("Ctrl+" * 10,000 + " ":
    11 s), a company's name from every "&" ("A&" * 16,000: 3.7 s) and a LaTeX table's row from each (* 60,000: 7.5 s;
    linear, 0.6 s), and a run of capitals from each ("A " * 16,000: 3.3 s). In a child process, so that a regression
    fails here instead of hanging the suite: at a quarter of the sizes `make test-slow` reads (a quadratic of these
    costs a few to tens of seconds there), each within `HOSTILE_SECONDS`."""
    read_hostile_texts(scale=4)
    lines = "a: b\n" * 50
    assert prepare("---\n" + lines + "Done.").protected == [] and prepare("---\n" + lines + "---").segments == []


@pytest.mark.slow
def test_texts_that_backtracked_are_read_in_linear_time_at_full_size():
    """The texts above at four times the sizes `make test` reads."""
    read_hostile_texts(scale=1)


def test_paragraph_runs_keep_a_fenced_code_block_whole_blank_lines_and_all():
    lines = ["Intro", "more", "", "```py", "code", "", "```sh", "", "code", "```", "", None, "~~~", "a", "```", "", "b",
             "~~~~", "end", "", "x"]
    assert list(paragraph_runs(lines, lambda line: line)) == [  # closed by its own marks alone
        ["Intro", "more"], [""], ["```py", "code", "", "```sh", "", "code", "```"], [""], [None],
        ["~~~", "a", "```", "", "b", "~~~~", "end"], [""], ["x"]]
    nested = ["````md", "```sh", "", "ls", "```", "", "````", "", "Done."]  # only as many marks or more close a fence
    assert [len(run) for run in paragraph_runs(nested, lambda line: line)] == [7, 1, 1]
    pre = ["<p>Run:</p>", "<PRE>", "a=1", "", "b=2", "</pre>", "", "Done."]  # an HTML <pre> keeps its blank lines
    assert [len(run) for run in paragraph_runs(pre, lambda line: line)] == [6, 1, 1]
    # and so does a script (mdBook's pages: cut at its blank lines, its code was translated), where it opens a line or
    # follows a tag; a mention in prose opens nothing
    script = ["  <!-- c --> <script>", "  try {", "", "  } catch (e) { }", "  </script>", "",
              "Use the <script> tag.", "", "Done."]
    assert [len(run) for run in paragraph_runs(script, lambda line: line)] == [5, 1, 1, 1, 1]
    # and a Mallard page's (GNOME's help) or DocBook's code block and terminal text: cut at their blank lines, a
    # configuration file's lines came back translated ("# Pfad angeben dconf angeben [orgnome/login-screen]") and
    # the page's tags after it were translated as words
    for opening in ("<code>", '    <screen its:translate="no">', "<programlisting>"):
        name = opening.strip()[1:].split(">")[0].split()[0]
        block = [opening, "# Specify the dconf path", "[org/gnome/login-screen]", "", "enable=false", f"</{name}>"]
        assert [len(run) for run in paragraph_runs([*block, "", "Done."], lambda line: line)] == [6, 1, 1]
    stray = ["```", *["x", ""] * FENCE_MAX_LINES]  # a fence never closed holds its blank lines only so long
    assert len(next(iter(paragraph_runs(stray, lambda line: line)))) == FENCE_MAX_LINES
    # counted from the block's first line: a web page's run of lines longer than that (mdBook's print.html) cut each
    # <pre> after it at its blank lines, and their halves were translated
    late = [*[f"<p>{n}</p>" for n in range(FENCE_MAX_LINES + 5)], "<pre>a=1", "", "b=2</pre>", "", "Done."]
    assert [len(run) for run in paragraph_runs(late, lambda line: line)] == [FENCE_MAX_LINES + 8, 1, 1]


@pytest.mark.parametrize("text, html, segments, protected", [
    ("%s %s %s Delete the files?", False, ["XX0X Delete the files?"], ["%s %s %s"]),
    ("<b><b><b>Hello</b></b></b>", True, ["XX0XHelloXX1X"], ["<b><b><b>", "</b></b></b>"]),
    ("Click <a href='x'>%s</a> to go on.", False, ["Click XX0X to go on."], ["<a href='x'>%s</a>"]),
    ("<p><b>Save</b></p><p>Quit</p>", True, ["XX0XSaveXX1X", "Quit"], ["<p>", "<b>", "</b>", "</p>", "<p>", "</p>"]),
    ("Open\t%s\t%s now", False, ["Open", "XX0X now"], ["%s", "%s"]),  # a tab separates segments
    ("<p>Save.</p> <p>Quit.</p>", True, ["Save.", "Quit."], ["<p>", "</p>", "<p>", "</p>"]),
    # plain, without alignments: a run of tags is one item, and a block element with a tag in one is no block
    ("<p>Save.</p> <p>Quit.</p>", False, ["XX0XSave.XX1X", "Quit.XX0X"], ["<p>", "</p> <p>", "</p>"]),
])
def test_protected_items_with_only_spaces_between_them_are_one_token(text, html, segments, protected):
    """Among several tokens in a row the model lost the words ("%s %s … Delete the files?" came back as its
    placeholders alone): a run is one item. Tabs, and in HTML block-level tags, still separate segments."""
    prepared = prepare(text, html=html)
    assert prepared.segments == segments and prepared.protected == protected
    assert prepared.restore(prepared.segments) == text
    assert prepared.restore(["" for _ in segments]).count("%s") == text.count("%s")  # repaired back in


@pytest.mark.parametrize("text, html, segments, protected", [
    ("Could not connect to %s:%d", False, ["Could not connect to XX0X"], ["%s:%d"]),
    ("Copied %d/%d files to %s@%s.", False, ["Copied XX0X files to XX1X."], ["%d/%d", "%s@%s"]),
    ("Version %d.%d.%d, range {from}-{to}", False, ["Version XX0X, range XX1X"], ["%d.%d.%d", "{from}-{to}"]),
    ("Error %s: %s", False, ["Error XX0X: XX1X"], ["%s", "%s"]),  # a space: a label and its value stay two
    ("Press <b>Ctrl</b>+<b>C</b>", True, ["Press XX0XCtrlXX1X+XX2XCXX3X"], ["<b>", "</b>", "<b>", "</b>"]),
    ("Sizes &lt;, &gt; %s", True, ["Sizes <, > XX0X"], ["&lt;", "&gt;", "%s"]),  # references read as characters
])
def test_items_joined_by_marks_without_spaces_are_one_token_but_not_markup(text, html, segments, protected):
    """As two tokens the model moved one alone: "Could not connect to %s:%d" came back as "Verbindung mit %s konnte
    nicht hergestellt werden:%d". Tags keep their own tokens (they wrap words), references their characters."""
    prepared = prepare(text, html=html)
    assert prepared.segments == segments and prepared.protected == protected
    assert prepared.restore(prepared.segments) == text


def test_a_run_of_tags_keeps_its_place_in_source_order():
    """A merged run of tags is still a tag to the repair: put back in source order if the model swapped them."""
    prepared = prepare("<b><i>Hello</i></b> world", html=True)
    assert prepared.protected == ["<b><i>", "</i></b>"]
    assert prepared.restore(["XX1XHalloXX0X Welt"]) == "<b><i>Hallo</i></b> Welt"


def test_a_run_of_a_placeholder_and_a_tag_keeps_the_tags_order():
    """Hypothesis found it: "%s </b>" is one merged item, not tags alone, and the model's swap put it before
    its "<b>"."""
    prepared = prepare("<b> house %s </b> end")
    assert prepared.protected == ["<b>", "%s </b>"]
    assert prepared.restore(["XX1X Haus XX0X Ende"]) == "<b> Haus %s </b> Ende"


def test_symbols_outside_ascii_are_items_but_the_degree_sign_and_ascii_ones():
    """Placeholders or not (the model drops them either way); a sign inside a word takes the word along, one at its
    edge stays apart (`whole_words`) but a trademark sign, which keeps its name; a number and its sign are one
    item."""
    prepared = prepare("Pay €5, 3 £ or $4 for Windows® at 20 °C (1⁄2 → x + y) to A → B", preserve_placeholders=False)
    assert prepared.protected == ["€5", "£", "Windows®", "1⁄2 →", "→"]
    assert prepared.segments == ["Pay XX0X, 3 XX1X or $4 for XX2X at 20 °C (XX3X x + y) to A XX4X B"]
    assert prepare("It costs 17,50 € or €8.").protected == ["17,50 €", "€8"]
    html = prepare("5&nbsp;&euro; or &pound;5", html=True)  # references to them are not read as the characters
    assert html.segments == ["XX0X XX1X or XX2XXX3X"] and html.restore(html.segments) == "5&nbsp;&euro; or &pound;5"


def test_codes_are_items_and_short_ones_stay_text():
    prepared = prepare("UUID 123e4567-e89b-12d3-a456-426614174000, IBAN DE89370400440532013000, key SGVsbG8gd29ybGQ=, "
                       "color #ff0000 or #fff; OAuth2, x86_64, COVID-19-related, v1.2.3-rc.1 and Windows10.")
    assert prepared.protected == ["123e4567-e89b-12d3-a456-426614174000", "DE89370400440532013000", "SGVsbG8gd29ybGQ=",
                                  "#ff0000", "v1.2.3-rc.1", "Windows10"]  # a version: test_a_version_after_a_v_...
    assert prepare("a1b2c3d4-based").protected == ["a1b2c3d4-based"]  # one word: a code does not stop at a dash
    assert prepare("A music123 stream").segments == ["A XX0X stream"]
    # a C++ name is no IPv6 address (test_a_name_scoped_by_double_colons_is_kept_whole), nor a clock's time
    assert prepare("Ping 2001:db8::1 or ::1, not std::vector, at 10:30.").protected == ["2001:db8::1", "::1",
                                                                                       "std::vector", "at 10:30"]
    # an OpenPGP fingerprint in groups of four (4 of 6 here came back changed, "ABB2" as "AB2"); no hex letters' words
    key = "8657 ABB2 60F0 56B1 E519  0839 D9C4 D26D 0E60 4491"
    assert prepare(f"Signing key:\n{key}").protected == [key]
    assert prepare("CAFE BABE DEAD BEEF is magic, and so is dead beef cafe face.").protected == []
    # IPv4 addresses in a list, a comma and a digit after each (dnsmasq's range: "192.168.100.252" came back as
    # "192.168.100.2"), with a prefix length or a port; not a number with more or other parts
    assert prepare("Example: 192.168.100.20,192.168.100.252,12h").segments == ["Example: XX0X,XX1X,12h"]
    assert prepare("Use 10.0.0.0/8 or 127.0.0.1:8080, not 300.1.1.1 or v1.2.3.4.").protected == [
        "10.0.0.0/8", "127.0.0.1:8080", "300.1.1.1", "v1.2.3.4"]  # (a number, and a version: as before)


def test_an_acute_accent_typed_as_a_contractions_apostrophe_is_read_as_one():
    """A German keyboard's "´" in "don´t" is a symbol, which took its word along as an item: "I don´t know where the
    file is." came back as "Ich weiß, wo die Datei ist don´t." (negation lost). The model reads an apostrophe: of 728
    held-out sentences with a contraction, typed so, 0 came back as with the apostrophe, now 717, and none with a "´".
    Elsewhere it stays a symbol, kept as written."""
    prepared = prepare("I don´t know, it´s late and we´ll see.")
    assert prepared.segments == ["I don't know, it's late and we'll see."] and prepared.protected == []
    assert prepare("Click ´Save´ or type ´ alone, ´til then.").protected == ["´", "´", "´", "´"]


def test_a_letter_the_model_cannot_read_takes_its_whole_word_along():
    """"ViXX0Xt" reads to the model as a fragment ("ViX0Xt Name ist ..."): a span holding a letter or digit, or
    lying inside a word ("cc_config", "Open\u200bOffice"), is widened to its word; symbols at a word's edge (quotes,
    emoji) are not, so the words they touch are still translated."""
    text = 'Việt Nam, Dvořák and "Save" 😀ok cafe\u0301s in cc_config.xml of Open\u200bOffice.'
    spans = [(text.index(c), text.index(c) + len(c)) for c in ("ệ", "ř", '"', "😀", "e\u0301", "_", "\u200b")]
    assert [text[a:b] for a, b in whole_words(text, spans)] == \
        ["Việt", "Dvořák", '"', "😀", "cafe\u0301s", "cc_config", "Open\u200bOffice"]
    prepared = prepare(text, unknown=lambda t: spans)
    # the quotes pair around a term: items (the closing one in a run with the emoji after it); a file name: one item
    assert prepared.segments == ['XX0X Nam, XX1X and XX2XSaveXX3Xok XX4X in XX5X of XX6X.']
    assert prepared.restore(prepared.segments) == text
    # a span of a symbol and a letter, both unknown, widens on its letter's side only: "microseconds" is a word of
    # its own, and was kept untranslated with "µs"
    units = "microsecond;microseconds;µs;us"
    assert [units[a:b] for a, b in whole_words(units, [(11, 12), (24, 26), (27, 28)])] == [";", ";µs;"]
    assert prepare("ISO 8859-1 (Latin alphabet no.1)").protected == ["8859-1", "no.1"]  # a form's word: to its end


def test_a_symbol_inside_a_word_is_widened_to_the_word_but_never_into_markup():
    """The ">" of "<b>station" is a character the model cannot read between two letters, but the tag covers it: the
    word after the tag stays text to translate."""
    tags = lambda s: [m.span() for m in re.finditer("[<>/_]", s)]  # noqa: E731
    prepared = prepare("Where is the <b>station</b>? See cc_config.", html=True, unknown=tags)
    assert prepared.protected == ["<b>", "</b>", "cc_config"]
    assert prepared.segments == ["Where is the XX0XstationXX1X?", "See XX0X."]


def test_symbols_the_model_cannot_read_stay_at_the_edges_of_a_sentence():
    """Read as a token glued to the first word, an emoji or a byte order mark cost the model the word ("😀Open the
    file." came back as "😀Einstellungen der Datei."): at a segment's edges they stay where they are, like the
    whitespace around it; inside it they are tokens, as before. A placeholder or a quotation mark is read."""
    emoji = lambda s: [m.span() for m in re.finditer("[😀\ufeff\u200e]+", s)]  # noqa: E731
    prepared = prepare("\ufeff😀 Open the file.\u200e Then 😀 save it 😀\n%s files", unknown=emoji)
    assert prepared.segments == ["Open the file.", "Then XX0X save it", "XX0X files"]
    assert prepared.restore(["A.", "B XX0X C", "XX0X D"]) == "\ufeff😀 A.\u200e B 😀 C 😀\n%s D"
    escaped = prepare("&#128512;Open the file.&nbsp;", html=True, unknown=emoji)
    assert escaped.segments == ["Open the file."] and escaped.restore(["A."]) == "&#128512;A.&nbsp;"


def test_guillemets_apart_from_the_words_at_a_sentences_edge_stay_there():
    """A link's arrow ("Log out &raquo;" came back as "&raquo; abmelden", "&laquo; Back" as "&laquo; zurück") is
    kept at its edge, as it is or as a reference, and so are the marks of a quotation the segment holds whole. Marks
    glued to words, or inside a sentence, are read."""
    cases = {"Log out &raquo;": (["Log out"], ["Abmelden"], "Abmelden &raquo;"),
             "&laquo; Back": (["Back"], ["Zurück"], "&laquo; Zurück"),
             "‹ Older posts\nNewer posts ›": (["Older posts", "Newer posts"], ["Ältere", "Neuere"],
                                              "‹ Ältere\nNeuere ›"),
             "« Good morning, everyone »": (["Good morning, everyone"], ["Guten Morgen"], "« Guten Morgen »"),
             "He said »yes« to me.": (["He said »yes« to me."], ["Er sagte »ja«."], "Er sagte »ja«."),
             "Read « this » now": (["Read XX0X this XX1X now"], ["Lies XX0X das XX1X jetzt"], "Lies « das » jetzt")}
    for source, (segments, translations, expected) in cases.items():
        prepared = prepare(source)
        assert prepared.segments == segments, source
        assert prepared.restore(translations) == expected, source


def test_direct_speech_is_a_sentence_of_its_own_in_german_quotation_marks():
    """Read inside its sentence, a quoted sentence kept its first word English ('He said: "We will be there
    tomorrow."' came back 'Er sagte: "We wird morgen da sein."'): a quotation that is a sentence, at the text's start
    or after a mark, is translated alone, its ASCII marks written „ and “, a comma ending it after the closing mark,
    a tag of a pronoun and a verb after it verb first ("sie sagte." came back where German writes "sagte sie."), a
    comma before it a colon ("Sie sagte, „Ich komme.“" is "Sie sagte: „Ich komme.“").
    A quotation after a word names a label and stays in its sentence; in JSON or a configuration file it is syntax."""
    cases = {
        'He said: "We will be there tomorrow."': (
            ["He said:", "We will be there tomorrow."], ["Er sagte:", "Wir werden morgen da sein."],
            "Er sagte: „Wir werden morgen da sein.“"),
        '"I will call you tonight," she said.': (  # a tag of a pronoun and a verb: verb first, as German writes it
            ["I will call you tonight", "she said."], ["ich rufe dich heute Abend an", "Sie sagte."],
            "„Ich rufe dich heute Abend an“, sagte sie."),  # and the speech from a capital, as its source
        "'Stop!' he shouted. 'The bridge is closed.'": (
            ["Stop!", "he shouted.", "The bridge is closed."], ["Halt!", "rief er.", "Die Brücke ist zu."],
            "„Halt!“ rief er. „Die Brücke ist zu.“"),
        "She said: “I love this city.”": (  # curly marks are written as German prints them
            ["She said:", "I love this city."], ["Sie sagte:", "Ich liebe diese Stadt."],
            "Sie sagte: »Ich liebe diese Stadt.«"),
        # the comma before it is German's colon, where the model kept it or dropped it ("Er bat „Wo ist ...?“")
        'She said, "I will come." He asked, "Where is it?"': (
            ["She said,", "I will come.", "He asked,", "Where is it?"],
            ["Sie sagte,", "Ich komme.", "Er fragte:", "Wo ist es?"],
            "Sie sagte: „Ich komme.“ Er fragte: „Wo ist es?“"),
        # but for a tag inside an interrupted quotation
        "'Stop,' he said, 'I hear something.'": (
            ["Stop", "he said,", "I hear something."], ["Halt", "sagte er,", "Ich höre etwas."],
            "„Halt“, sagte er, „Ich höre etwas.“"),
    }
    for text, (segments, german, translation) in cases.items():
        prepared = prepare(text)
        assert prepared.segments == segments, text
        assert prepared.restore(german) == translation
    assert prepare('He asked, "Where is it?"').restore(["Er bat", "Wo ist es?"]) == "Er bat: „Wo ist es?“"
    for text in ('Press the "How does this work?" link.', 'Select "Open With..." from the menu.',
                 'Type "yes" to continue.', '{"body": "Please sign in."}'):
        assert prepare(text).own_segments == 1, text  # (a label is a segment of its own after them: `ui_labels`)
    assert prepare('He said: "I am tired."', preserve_placeholders=False).segments == ['He said: "I am tired."']


def test_a_masked_closing_quote_stays_with_its_sentence_and_the_space_after_it_survives():
    """The shipped vocabulary lacks the ASCII '"', so it is masked; the segmenter then read the closing quote's token
    as the next sentence's start, and the translation lost the space after the quote ('morgen."%s Dateien')."""
    text = 'He wrote "I will come tomorrow." Delete %s files? Done.%s'  # after a word: a title, not speech
    quotes = [(i, i + 1) for i, c in enumerate(text) if c == '"']
    prepared = prepare(text, unknown=lambda t: quotes)
    assert prepared.segments == ["He wrote XX0XI will come tomorrow.XX1X", "Delete XX0X files?", "Done.XX0X"]
    assert prepared.glue == ["", " ", " ", ""]
    assert prepared.restore(["Er schrieb XX0XIch komme morgen.XX1X", "XX0X Dateien löschen?", "Fertig.XX0X"]) == \
        'Er schrieb "Ich komme morgen." %s Dateien löschen? Fertig.%s'


def test_a_run_of_fifty_characters_without_a_space_is_kept_as_it_is():
    """No English word is that long: a hash, an encoded blob, a path or an identifier, which the model would garble.
    It is kept whether or not placeholders are, like characters the model cannot read."""
    path, digest = "/usr/share/locale/de/LC_MESSAGES/a-long-package-name.mo", "9f86d081884c7d659a2feaa0c55ad015" * 2
    text = f"Open {path} now. Its checksum is {digest} here."
    for keep in (True, False):
        prepared = prepare(text, preserve_placeholders=keep)
        assert prepared.protected == [path, digest]
        assert prepared.segments == ["Open XX0X now.", "Its checksum is XX0X here."]
    assert prepare("ab" * 24 + "a b").protected == []  # one short of it (and spelled like English): translated
    glued = prepare("%s" + "b" * 60 + " c")  # a placeholder opening a run: one item with it
    assert glued.protected == ["%s" + "b" * 60] and glued.segments == ["XX0X c"]


def test_an_enormous_word_is_never_cut_inside_a_placeholder_token():
    text = "a😀-%s" * 9  # 45 characters: any longer is kept whole, untranslated (an emoji inside a word is too)
    prepared = prepare(text, fits=lambda s: len(s) <= 20, unknown=unknown_runs)
    assert len(prepared.segments) > 3 and all(len(s) <= 20 for s in prepared.segments)
    assert prepared.restore(prepared.segments) == text
    assert prepared.restore([""] * len(prepared.segments)).count("😀") == 9  # the model lost them all


def test_line_breaks_and_whitespace_are_kept_exactly():
    text = "  Line one.\r\nLine two.  \n\n\tThird line!  "
    prepared = prepare(text)
    assert prepared.restore([s.upper() for s in prepared.segments]) == "  LINE ONE.\r\nLINE TWO.  \n\n\tTHIRD LINE!  "


def test_every_line_boundary_and_tab_separates_segments_and_is_kept():
    """Unicode's line boundaries (those of str.splitlines) and tabs are breaks between segments: never part of a
    sentence the model sees, where its normalization would turn them into spaces or drop them."""
    breaks = ["\u2028", "\u2029", "\x0c", "\x85", "\x0b", "\t", "\x1c", "\x1d", "\x1e", "\r"]
    text = "".join(f"Line {chr(97 + i)}{b}" for i, b in enumerate(breaks)) + "End."
    prepared = prepare(text)
    assert prepared.segments == [f"Line {chr(97 + i)}" for i in range(len(breaks))] + ["End."]
    assert prepared.restore([s.upper() for s in prepared.segments]) == text.upper()


def test_html_mode_keeps_markup_and_splits_at_block_tags():
    prepared = prepare("<p>One. Two &amp; three.</p><p>Four</p>", preserve_placeholders=False, html=True)
    assert prepared.segments == ["One.", "Two & three.", "Four"]
    assert prepared.restore(["A.", "B & c.", "D"]) == "<p>A. B &amp; c.</p><p>D</p>"
    # a "<" or "&" the model writes is text: as a reference ("%<%>" made a page no XML parser reads), but where the
    # text itself writes one bare
    prepared = prepare("<p>It will be <a href='#p'>percent-encoded</a>.</p>", html=True)
    restored = prepared.restore(["Es wird %<%>-XX1Xkodiert & gutXX2X."])
    assert restored.startswith("<p>Es wird %&lt;%>-<a href='#p'>kodiert &amp; gut") and restored.count("<") == 4
    assert prepare("<p>Tom & Jerry</p>", html=True).restore(["Tom & Jerry"]) == "<p>Tom & Jerry</p>"


def test_runs_of_spaces_separate_columns_kept_exactly():
    """A help text's option and what it does: the model wrote one space between them and dropped words ("  -W,
    --pwprompt            prompt for a password" came back as "-W, --pwprompt anzeigen"). In HTML a run of spaces is
    a space."""
    text = "  -W, --pwprompt            prompt for a password\n      --reference=RFILE  use RFILE's mode"
    prepared = prepare(text)
    assert prepared.segments == ["prompt for a password", "XX0X=RFILE", "use RFILE's mode"]
    assert prepared.restore(["nach einem Passwort fragen", "XX0X=RFILE", "RFILEs Modus"]) == \
        "  -W, --pwprompt            nach einem Passwort fragen\n      --reference=RFILE  RFILEs Modus"
    assert prepare("<p>We  offer   products.</p><pre>a    b</pre>", html=True).segments == ["We  offer   products."]


def test_a_help_texts_commands_and_keywords_are_kept_as_written():
    """A help text's table of commands, keywords or values: the term in small letters on an indented line, before a
    gap and what it does, is what a user types, and the German keeps it; read, the model translated it ("clone" came
    back as "Klone", "erase CHAR" as "Lösche CHAR", dd's "ascii" as "Aszii"; "none, off" as "nicht, aus", stty's
    "[-]parodd" as "[-]parod"). Not a capitalized label, not a line
    that is not indented, not a gap of two spaces, not a line whose other gaps are nearly as wide: a paragraph
    justified to both margins ("vice   account  must  hold")."""
    text = ("These are common Git commands:\n   clone      Clone a repository\n add        Add file contents\n"
            "   erase CHAR    CHAR will erase the last character typed\n\tdir\tAdds DIR to the stack\n"
            "  Name       The user's full name")
    prepared = prepare(text)
    assert prepared.segments == ["These are common Git commands:", "Clone a repository", "Add file contents",
                                 "CHAR will erase the last character typed", "Adds DIR to the stack", "Name",
                                 "The user's full name"]
    assert prepared.restore([segment.upper() for segment in prepared.segments]) == (
        "THESE ARE COMMON GIT COMMANDS:\n   clone      CLONE A REPOSITORY\n add        ADD FILE CONTENTS\n"
        "   erase CHAR    CHAR WILL ERASE THE LAST CHARACTER TYPED\n\tdir\tADDS DIR TO THE STACK\n"
        "  NAME       THE USER'S FULL NAME")
    for read in ("clone      Clone a repository", "   clone  Clone a repository", "       vice   account  must  hold",
                 "   document           containing          a"):
        assert prepare(read).segments[0] in ("clone", "vice", "document"), read
    # words that say the same value, and a setting "[-]" turns off (the installed catalogs' German keeps 43 of 43)
    values = "  none, off       never make backups\n  c, u   create a character file\n   [-]ignpar     ignore errors"
    assert prepare(values).segments == ["never make backups", "create a character file", "ignore errors"]
    assert prepare("   and, so on     it goes").segments == ["and, so on", "it goes"]  # a gap after two words
    # a term with its argument in brackets (od's "d[SIZE]" came back as "d[SIZEICH]")
    assert prepare("  d[SIZE]    signed decimal\n  x[SIZE]    hexadecimal\n").segments == ["signed decimal",
                                                                                       "hexadecimal"]
    # a term after a list's bullet, as stty marks a setting POSIX lacks ("cols N" came back as "Spalten N"), also where
    # the vocabulary lacks the bullet, an item then
    stty = " * cols N        tell the kernel the columns\n * size          print the size\n"
    assert prepare(stty).segments == ["tell the kernel the columns", "print the size"]
    unknown_bullets = prepare(stty, unknown=lambda text: [found.span() for found in re.finditer(r"\*", text)])
    assert unknown_bullets.segments == ["tell the kernel the columns", "print the size"]
    assert prepare(" - read the docs     first").segments == ["read the docs", "first"]  # words of a sentence
    # an example's command line after the program's placeholder ("root" came back as "Wurzel"), not an option's value
    examples = "Examples:\n  %s root /u        Change the owner of /u.\n  -a FILENUM   print lines of FILENUM\n"
    assert prepare(examples).segments == ["Examples:", "Change the owner of XX0X.", "XX0X FILENUM",
                                          "print lines of FILENUM"]


def test_a_term_alone_on_its_line_above_what_it_does_is_kept_as_written():
    """psql's variables and objdump's options, each alone on an indented line above its description, indented deeper
    ("  AUTOCOMMIT\n    if set, ..."): the installed catalogs' German keeps 66 of 67; read, "AUTOCOMMIT" came back as
    "AUTOMATISCH EINSPIELEN", "COLUMNS" as "SPALTEN", "att-mnemonic" as "schallmnemonisch". Not a heading at the line's
    start, nor a word above a line indented as deep, nor a capitalized word."""
    text = ("  AUTOCOMMIT\n    if set, commands are committed\n"
            "  att-mnemonic\n\t\tDisplay instruction in AT&T mnemonic\n")
    prepared = prepare(text)
    assert prepared.segments == ["if set, commands are committed", "Display instruction in AT&T mnemonic"]
    assert prepared.restore(["wenn gesetzt, ...", "Befehl anzeigen"]) == \
        "  AUTOCOMMIT\n    wenn gesetzt, ...\n  att-mnemonic\n\t\tBefehl anzeigen\n"
    for read in ("NOTES\n       Some notes here.", "  hello\n  world is big", "  Columns\n    number of columns"):
        assert len(prepare(read).segments) == 2, read
    assert prepare("  hello\n").segments == ["hello"]  # no description below it


def test_in_html_a_line_break_is_a_space_except_inside_pre():
    """A page's source wraps its lines anywhere: "<p>We offer\n great products.</p>" reached the model as "We offer"
    and "great products."; a line break in plain text, and inside a <pre> not closed in the text (its element whole is
    code: `test_pre_and_code_elements_are_kept_as_written`), still separates segments."""
    text = "<p>\n  Welcome. We offer\n  great\tproducts.\n</p>\n<p>A\nb</p>\n<PRE class=x>line one\nline two"
    prepared = prepare(text, html=True)
    assert prepared.segments == ["Welcome.", "We offer\n  great\tproducts.", "A\nb", "line one", "line two"]
    assert prepared.restore(["Willkommen.", "Wir bieten tolle Produkte.", "A b", "Zeile eins", "Zeile zwei"]) == \
        "<p>\n  Willkommen. Wir bieten tolle Produkte.\n</p>\n<p>A b</p>\n<PRE class=x>Zeile eins\nZeile zwei"
    assert prepare("We offer\ngreat products.").segments == ["We offer", "great products."]


def test_pre_code_tt_and_samp_elements_are_kept_as_written():
    """A page's <pre> holds its commands and code (all 9 of Jenkins' 105 English help pages' do): "<pre>sudo apt-get
    --yes install openjdk-6-jdk</pre>" came back as "...openjdk-6-jdk-6-jdk"."""
    text = "<p>Run:</p>\n<pre>sudo apt-get --yes install openjdk-6-jdk\nwget --no-verbose $url</pre>\n<p>Done.</p>"
    prepared = prepare(text, html=True)
    assert prepared.segments == ["Run:", "Done."]
    assert prepared.restore(["Ausführen:", "Fertig."]) == text.replace("Run:", "Ausführen:").replace("Done.", "Fertig.")
    # <tt> and <samp> too, as DocBook's and older pages mark code and output ("<tt>Z_BUF_ERROR</tt>" came back as
    # "<tt>ZBUFERRORREICHEN</tt>", libxslt's "<tt>ctxt</tt>" as "<tt>Strg</tt>")
    marked = prepare("<p>It returns <tt>Z_BUF_ERROR</tt> for <i><tt>ctxt</tt></i>, printing <samp>no space</samp>.</p>",
                     html=True)
    assert "<tt>Z_BUF_ERROR</tt>" in marked.protected and "<samp>no space</samp>" in marked.protected
    assert not any("ctxt" in segment or "space" in segment for segment in marked.segments)
    # and characters the model cannot read stay items in a page that has such an element: the untranslatable
    # elements' search dropped them ("<strong>ffi_status</strong>" beside a <code> came back as "ffistatus")
    unread = prepare("<p>Use <code>abc</code>.</p><p>The <b>ffi_status</b> 😀 value</p>", html=True,
                     unknown=lambda text: [found.span() for found in re.finditer("[_😀]", text)])
    assert unread.segments == ["Use XX0X.", "The XX0X value"] and "<b>ffi_status</b> 😀" in unread.protected


def test_character_references_are_read_as_their_characters_and_written_back():
    """As placeholder tokens, references cost the words beside them ("Save &amp; close the file." came back as
    "&amp; schließen Sie die Datei.", "I don&#39;t know." as "Ich weiß nicht.&#39;t."): the model reads the character
    and the translation spells it as the text did, in every sentence (the text is escaped), in plain text and HTML
    (but a tag written in references, "&lt;why&gt;", which is an item as plain text's "<why>" is)."""
    text = 'Save &amp; close. I don&#39;t know &lt;why. Caf&eacute; &#x2192; <a href="x">&quot;n&quot;</a>'
    for as_html in (False, True):
        prepared = prepare(text, html=as_html, unknown=lambda s: [m.span() for m in re.finditer("\u2192", s)])
        # "→" is outside the vocabulary; the quotes in the tag are no text
        assert prepared.segments == ["Save & close.", "I don't know <why.", 'Café XX0X XX1X"n"XX2X']
        assert prepared.restore(prepared.segments) == text
        translated = ["Speichern & schließen.", "Ich weiß nicht, <warum's.", 'Ein "Café" & XX0X XX1X"n"XX2X']
        restored = ("Speichern &amp; schließen. Ich weiß nicht, &lt;warum&#39;s. "
                    'Ein &quot;Caf&eacute;&quot; &amp; &#x2192; <a href="x">&quot;n&quot;</a>')
        assert prepared.restore(translated) == restored
        assert " ".join(prepared.restore_segment(i, t) for i, t in enumerate(translated)) == restored


def test_a_reference_stays_a_token_where_its_character_would_be_ambiguous():
    """Where the text has the character outside references too, or two references to it, the translation's could not
    say which spelling it is; an ASCII letter or digit would be read into placeholder tokens; an invisible or
    combining character has no place the model could keep."""
    cases = {"Fish & chips. Salt &amp; pepper.": ["Fish & chips.", "Salt XX0X pepper."],
             "&#38; and &amp;": ["XX0X and XX1X"], "Vitamin &#65; or &#x31;": ["Vitamin XX0X or XX1X"],
             "soft&shy;ware": ["softXX0Xware"], "e&#769; is it": ["eXX0X is it"]}
    for text, segments in cases.items():
        prepared = prepare(text)
        assert prepared.segments == segments
        assert prepared.restore(prepared.segments) == text


def test_a_non_breaking_space_between_words_is_read_as_a_space_and_put_back_beside_them():
    """The vocabulary normalizes U+00A0 to a space, and as a token "Save the file&nbsp;now." came back as
    "Datei&nbsp;now speichern.": it is read as a space and goes back between its words where the translation keeps
    both side by side, else beside the one it keeps once; references at a sentence's edges stay where they are."""
    prepared = prepare("It costs 10&nbsp;euros. Mr.&#160;Smith came. Save the file&nbsp;now. &nbsp;&nbsp;Go 9&nbsp;km.")
    assert prepared.segments == ["It costs XX0X euros.", "Mr. Smith came.", "Save the file now.", "Go XX0X km."]
    assert prepared.restore(["Es kostet XX0X Euro.", "Herr Smith kam.", "Jetzt die Datei speichern.", "Geh XX0X km."]) \
        == "Es kostet 10&nbsp;Euro. Herr&#160;Smith kam. Jetzt die Datei speichern. &nbsp;&nbsp;Geh 9&nbsp;km."
    # "Smith" twice: which one? "km" alone: nothing after it
    assert prepared.restore(["XX0X Euro.", "Smith, Smith.", "x", "km XX0X"]).endswith("Smith, Smith. x &nbsp;&nbsp;km 9")
    glued = prepare("a&nbsp;&nbsp;b, a &nbsp; b")  # not between two words: a token, as before
    assert glued.segments == ["aXX0XXX1Xb, a XX2X b"]


@pytest.mark.parametrize("text", ["house house&nbsp;house house", "&amp; house 10&nbsp;house", "a 10&nbsp;km b 20&nbsp;km"])
def test_a_non_breaking_space_goes_back_between_the_same_words_it_was_between(text):
    """Found by the property test above: between two words that occur side by side more than once, the reference
    went to the first such pair ("house&nbsp;house house house"), and beside a token numbered across the text it was
    lost ("10 house"), since its words kept the text's numbering where the segment's was renumbered."""
    prepared = prepare(text)
    assert prepared.restore(prepared.segments) == text


def test_a_sentence_in_capitals_is_read_sentence_cased_and_written_in_capitals():
    """The model read capitals as letters ("DELETE ALL FILES?" came back as "DELETEE ALLESEITEIS?", a label alone,
    "CANCEL.", as "ANTERZEICHNIS."): an English word alone of three letters or more is read so too; a shorter word
    in capitals is mostly an acronym and stays as it is ("TV" read as "Tv" came back as "TW"); placeholders and
    references keep their spelling."""
    prepared = prepare("WARNING: DELETE %s FILES IN THE CAF&Eacute; &amp; BAR? CANCEL. TV. Open the PDF.")
    assert prepared.segments == ["Warning: delete XX0X files in the café & bar?", "Cancel.", "TV.", "Open the PDF."]
    assert prepared.shouted == [True, True, False, False]
    translated = ["Warnung: XX0X Dateien im Café & Bar löschen?", "Abbrechen.", "Fernsehen.", "Öffne das PDF."]
    assert prepared.restore(translated) == \
        "WARNUNG: %s DATEIEN IM CAF&Eacute; &amp; BAR LÖSCHEN? ABBRECHEN. Fernsehen. Öffne das PDF."
    assert prepared.written(0, "straße &") == "STRASSE &amp;"  # a streamed piece
    assert prepare("XXL SIZE %s").restore(["Größe xxl XX0X"]) == "GRÖSSE XXL %s"  # the source's own "XX" is no token


def test_a_word_in_capitals_for_emphasis_is_read_in_small_letters_and_its_german_written_in_capitals():
    """The model read "NOT" in a sentence as letters ("Do NOT turn off your computer." came back as "Keine KEINENT
    ausschalten."): it reads the word in small letters, and its German comes back in capitals, as the catalogs write
    it; the segment is restored whole, not streamed. Not an operator's name, an acronym, a word joined to another or a
    sentence without small letters. So is a note's label before its colon where it opens a segment ("NOTE:" came back
    as "KEINE:"), not a name inside a sentence ("the NOTICE file")."""
    prepared = prepare("Do NOT turn off your computer. NEVER share ALL files.")
    assert prepared.segments == ["Do not turn off your computer.", "Never share all files."]
    assert prepared.emphasized == [["NOT"], ["NEVER", "ALL"]] and not prepared.streams(0)
    assert prepared.restore(["Schalten Sie den Computer nicht aus.", "Niemals alle Dateien teilen."]) == (
        "Schalten Sie den Computer NICHT aus. NIEMALS ALLE Dateien teilen.")
    assert prepared.restore(["Den Computer ausschalten.", "Teilen."]) == "Den Computer ausschalten. Teilen."
    for text in ("the logical NOT operator", "NOT(true) returns false", "the NOT-relay", "Open the USB drive.",
                 "ALL", "DO NOT TOUCH", "See the NOTICE file.", "NOTE this."):
        assert not any(prepare(text).emphasized), text
    # a note's label before its colon ("NOTE: If COMMAND adjusts ..." came back as "KEINE: Wenn COMMAND ...")
    prepared = prepare("NOTE: If COMMAND adjusts it, it wins.\nCAUTION: shred overwrites data.")
    assert prepared.segments == ["Note: If COMMAND adjusts it, it wins.", "Caution: shred overwrites data."]
    assert prepared.restore(["Hinweis: Wenn COMMAND sie anpasst, gewinnt sie.", "Vorsicht: shred überschreibt."]) == \
        "HINWEIS: Wenn COMMAND sie anpasst, gewinnt sie.\nVORSICHT: shred überschreibt."


def test_an_ellipsis_the_model_reads_as_three_dots_comes_back_as_written():
    """The model's normalization reads "…" as "...", which it writes ("Loading…" came back as "Laden ..."); German
    catalogs keep the "…". A segment that has "..." of its own keeps the model's dots, and so does a longer run."""
    prepared = prepare("Loading…\nWait...\nCopy…")
    assert prepared.segments == ["Loading…", "Wait...", "Copy…"] and prepared.ellipses == [True, False, True]
    assert not prepared.streams(0) and prepare("Wait.... then go.").streams(0)  # a piece could end between the dots
    translated = ["Laden ...", "Warten ...", "Kopieren .... oder ..."]
    assert prepared.restore(translated) == "Laden …\nWarten ...\nKopieren .... oder …"
    assert prepare("Saving&hellip;", html=True).restore(["Speichern ..."]) == "Speichern &hellip;"
    assert prepare("Wait... loading…").restore(["Warten ... laden ..."]) == "Warten ... laden ..."


def test_a_sentence_with_three_dots_never_comes_back_with_two():
    """The model ended "Save forecast..." with two dots ("Vorhersage speichern..") in 10 of the 263 installed catalog
    messages that end in "..."; German catalogs never do. Inside a sentence too ("Wait... what happened?" came back as
    "Warten.. was passiert?"). Two dots are completed where the source has "..." or "…" and no ".." of its own; such
    a segment is sent whole, as a piece could end between the dots."""
    prepared = prepare("Save forecast...\nLoading…\nVersion 2..3\nStop.")
    assert prepared.broken_dots == [True, True, False, False]
    assert not prepared.streams(0) and not prepared.streams(1) and prepared.streams(3)
    translated = ["Vorhersage speichern..", "Laden..", "Version XX0X", "Stopp.."]
    assert prepared.restore(translated) == "Vorhersage speichern...\nLaden…\nVersion 2..3\nStopp.."
    assert prepare("Open %s...").restore(["XX0X öffnen.."]) == "%s öffnen..."
    assert prepare("Wait....").restore(["Warten.."]) == "Warten.."  # four dots: no ellipsis to complete
    assert prepare("Wait… what?!").restore(["Warten.. was?!"]) == "Warten… was?!"  # inside, after a "…"
    assert prepare("Wait... what happened?").restore(["Warten.. was passiert?"]) == "Warten... was passiert?"
    assert prepare("Usage: %s [file...]").restore(["Aufruf: XX0X [Datei..]"]) == "Aufruf: %s [Datei...]"
    assert prepare("Wait… see a..b").restore(["Warten.. siehe a..b"]) == "Warten.. siehe a..b"  # the source's own


def test_a_mark_between_clauses_the_model_cannot_read_separates_them():
    """As a placeholder token, a ";" the vocabulary lacks cost the words after it ("He's here; she's not." came back
    as "Er ist hier;."): the clauses are translated apart, the mark kept between them. Before a letter, or one the
    vocabulary has, it stays in the sentence (a word around it is not kept whole, as around other symbols: prose
    writes "end—finally")."""
    unreadable = lambda s: [m.span() for m in re.finditer("[;—|]", s)]  # noqa: E731
    prepared = prepare("He's here; she's not. Ask 1; 2 — or 3 | then go. Wait;now", unknown=unreadable)
    assert prepared.segments == ["He's here", "she's not.", "Ask XX0X", "or XX0X", "then go.", "WaitXX0Xnow"]
    assert prepared.restore([s.upper() for s in prepared.segments]) == \
        "HE'S HERE; SHE'S NOT. ASK 1; 2 — OR 3 | THEN GO. WAIT;NOW"
    assert prepare("He's here; she's not.").segments == ["He's here; she's not."]
    # and so are a web page's references to one ("LilyPond &mdash; Learning Manual" came back as "LilyPond
    # &mdash;-Larning-Handbuch", "Foo &mdash; Bar manual" as "Handbuch &mdash;")
    prepared = prepare("The manual &mdash; its second part &#8212; is here.", html=True)
    assert prepared.segments == ["The manual", "its second part", "is here."]
    assert prepared.restore([s.upper() for s in prepared.segments]) == (
        "THE MANUAL &mdash; ITS SECOND PART &#8212; IS HERE.")


def test_words_in_parentheses_are_translated_apart_from_their_sentence():
    """Read with its sentence, the model dropped a parenthesis and the words beside it ("How (else) to create new
    names:" came back as "Wie (eine neue Namen:"). A word's own parenthesis and one around items alone stay read."""
    prepared = prepare("Dereference links (look at what is linked to, not the link). Implies -noleaf (%s) or file(s).")
    assert prepared.segments == ["Dereference links", "look at what is linked to, not the link",
                                 "Implies XX0X (XX1X) or file(s)."]
    assert prepared.glue == ["", " (", "). ", ""]
    assert prepared.restore(["A", "B", "C XX0X (XX1X) D."]) == "A (B). C -noleaf (%s) D."
    assert prepare("(Deprecated) Port number").segments == ["Deprecated", "Port number"]


def test_numbers_are_kept_exactly():
    """The model changed numbers ("umask 077" came back as "0777777", "0 to 240" as "240 auf 240"): a number is a
    placeholder, with the separators between its digits; one inside a word or an identifier is the word's."""
    text = "umask 077, 0 to 240, 1-64, -1, 8,000 or 3.5, ratio 10:30 on 12/05/2024; x86, 8.2p1+, 2nd, SE-22, v2.0.1, 50%."
    # (a time after "at" would be a form: "um 10:30 Uhr")
    prepared = prepare(text)
    assert prepared.protected == ["077", "0 to 240", "1-64", "1", "8,000", "3.5", "10:30", "12/05/2024", "22",
                                  "v2.0.1", "50"]
    assert prepared.segments == ["umask XX0X, XX1X, XX2X, -XX3X, XX4X or XX5X, ratio XX6X on XX7X; x86, "
                                 "8.2p1+, 2nd, SE-XX8X, XX9X, XX10X%."]
    # grouped as German groups it, a range with German's "bis"
    assert prepared.restore(prepared.segments) == text.replace("8,000", "8.000").replace("0 to", "0 bis")
    assert prepare(text, preserve_placeholders=False).segments == [text]
    # before a slash and a word, a rate's amount is still one ("$19.99/month" came back as "$19.9/month"; a period
    # after it is the amount's form's: "19,99 $/Monat")
    rate = prepare("Price: $19.99/seat")
    assert rate.protected == ["$19.99"]
    assert rate.restore(rate.segments) == "Price: 19,99 $/seat"


def test_a_range_of_numbers_with_dots_is_one_item():
    """"1..128" and "0...4294967295" (systemd's and catalogs' ranges): the first number alone was an item, the rest
    read, and came back as "1.128", "0...42967295". Of 94 catalog messages with one, chrF 57.79 -> 61.16."""
    for text, item in {"The value must be in the range 1..128": "1..128", "%m month (01..12)": "01..12",
                       "Takes an integer in the range 0...4294967295.": "0...4294967295"}.items():
        assert prepare(text).protected == [item], text
    assert prepare("Page 1... Next").protected == ["1"]  # an ellipsis after a number


def test_a_number_with_an_exponent_is_one_item():
    """"1e-12" was "1" and "-12" around the model's "e" ("using 1e-12 instead" came back as "verwenden Sie 1-12"), and
    '"1e23"' a quotation mark with its "1" (a token's fragment came back, '"1e23X1:'): of 27 texts with such numbers
    among the catalogs, documentation and READMEs here, 19 kept them all, now 27. Kept as written, not localized."""
    for text, item in {"Bad precision, using 1e-12 instead of": "1e-12", "Engineering format (12.1e6 etc.)": "12.1e6",
                       "Determines how it is used (5.543E6).": "5.543E6",
                       'It looks like "1e23": convert it.': '"1e23"'}.items():
        prepared = prepare(text)
        assert prepared.protected == [item] and prepared.restore(prepared.segments) == text, text
    assert prepare("Use 3e4f as the key, or 2e and 0x1e23.").protected == ["0x1e23"]  # hex digits, a word


def test_a_number_grouped_in_thousands_comes_back_as_german_groups_it():
    """German groups thousands with "." and writes decimals after "," (of 73 such numbers in the dictionary and the
    held-out catalogs, the German writes 60 so); a decimal number that is no quantity may be a version and stays as
    written, and so does a range's "[001,366]" and a number in code."""
    grouped = prepare("It costs £1,234.50, all 8,000 points or 1,000,000 cents (version 2.5, days [001,366]).")
    assert grouped.protected == ["£1,234.50", "8,000", "1,000,000", "2.5", "001,366"]
    assert grouped.restore(grouped.segments) == (
        "It costs 1.234,50 £, all 8.000 points or 1.000.000 cents (version 2.5, days [001,366]).")
    # and a decimal number where it is a quantity: before a unit, after a currency (the dictionary's "7,5 km")
    quantities = prepare("It has 2.5 GB, costs USD 19.99 or 1.5% more and is 2.0 times faster than OAuth 2.0 in 3.1.4 "
                         "s.")
    assert quantities.restore(quantities.segments) == (
        "It has 2,5 GB, costs USD 19,99 or 1,5% more and is 2,0 times faster than OAuth 2.0 in 3.1.4 s.")
    # and so is each number of a range or a pair before their unit ("1.5 to 2.5 GB" came back as "1.5 bis 2.5 GB",
    # "1.5 and 2.5 times" as "1.5 und 2,5 Mal"); versions are not
    ranges = prepare("It needs 1.5 to 2.5 GB, weighs 1.5-2.5 kg, runs 1.5 and 2.5 times and 1.27–2.42x as fast; "
                     "versions 1.5-2.5 and 3.1 or 3.2 work.")
    assert ranges.restore(ranges.segments) == ("It needs 1,5 bis 2,5 GB, weighs 1,5-2,5 kg, runs 1,5 and 2,5 times and "
                                               "1,27–2.42x as fast; versions 1.5-2.5 and 3.1 or 3.2 work.")
    # and each factor of dimensions (a real workbook's "600.0 x 450.0 x 18.0" came back as "600,0 x 450,0 x 18.0")
    dimensions = prepare("A board of 600.0 x 450.0 x 18.0 and 2.5 x 3.5.")
    assert dimensions.restore(dimensions.segments) == "A board of 600,0 x 450,0 x 18,0 and 2,5 x 3,5."
    # a duration glued to its unit after a word that takes one ("Retrying in 5s..." came back as "Erneut in 5...")
    for text, german in {"Retrying in 5s...": "Retrying in 5 Sekunden...", "Show it for 1s, every 2h.":
                         "Show it for 1 Sekunde, every 2 Stunden.", "Done within 10min.": "Done within 10 Minuten."
                         }.items():
        prepared = prepare(text)
        assert prepared.restore(prepared.segments) == german, text
    for text in ("Built in 1980s style.", "He is in his 30s.", "Use separator for 1000s", "Hour in 24h format",
                 "It is 5km."):
        prepared = prepare(text)
        assert prepared.restore(prepared.segments) == text, text
    rating = prepare("Rated 4.5 out of 10 (3.7 stars) since version 4.5 out now.")  # a rating's is one too
    assert rating.restore(rating.segments) == "Rated 4,5 out of 10 (3,7 stars) since version 4.5 out now."
    code = prepare("Run `seq 1,000` now.")
    assert code.restore(code.segments) == "Run `seq 1,000` now."
    assert prepare("8,000 points", preserve_placeholders=False).segments == ["8,000 points"]


def test_a_day_or_a_month_abbreviated_alone_is_germans_abbreviation():
    """Roundcube's calendar labels: "Tue" came back as "Zurückstellen", "Aug" as "Auge", "Sep" as "Abgleich". A whole
    text that is such an abbreviation is German's, as the installed catalogs write it; not "Mon", "Sat", "Sun", "Jan"
    alone (a people, a name), and not inside a sentence."""
    for text, restored in (("Tue", "Di"), ("Dec.", "Dez."), (" Oct", " Okt"), ("Mon", "Mon"), ("Jan", "Jan")):
        prepared = prepare(text)
        assert prepared.restore(prepared.segments) == restored, text
    assert prepare("Wed and Sep came.").protected == []


def test_times_dates_days_and_amounts_come_back_as_german_writes_them():
    """The dictionary's references write every "a.m."/"p.m." time on the 24-hour clock with "Uhr", every date in words
    day first and every currency after its amount; as numbers and words the model kept the English ("The meeting
    starts at 5 p.m. on Monday." came back as "Die Sitzung beginnt am 5 p.m."), and a day after a preposition came
    back as "auf Sonnntag". Each is an item, with its preposition, written as German writes it."""
    cases = {
        "The meeting starts at 5 p.m. on Monday.": ("The meeting starts XX0X.", "um 17 Uhr am Montag"),
        "We close at 6 p.m.": ("We close XX0X.", "um 18 Uhr"),  # the dot is the sentence's
        "open 11 a.m.": ("open XX0X", "11 Uhr"),  # a fragment: its dot is the time's
        "Reply by 5 p.m. CET.": ("Reply XX0X.", "bis 17 Uhr CET"),  # was "bis 17 Uhr. CET.": the zone a sentence
        "At 9 a.m. UTC+1 we start.": ("XX0X we start.", "Um 9 Uhr UTC+1"),
        "Open from 9:30 a.m. to 5 p.m. daily.": ("Open XX0X daily.", "von 9:30 Uhr bis 17 Uhr"),
        "closed from 1 to 3 p.m.": ("closed XX0X", "von 13 bis 15 Uhr"),
        "Lunch is 11-1 pm.": ("Lunch is XX0X.", "11–13 Uhr"),
        "At 12 a.m. the day ends.": ("XX0X the day ends.", "Um 0 Uhr"),
        "I'll be there by 7 o'clock.": ("I'll be there XX0X.", "bis 7 Uhr"),
        "The train leaves at 10:30.": ("The train leaves XX0X.", "um 10:30 Uhr"),  # was "an 10:30"
        "Open from 9:00 to 17:00, not between 0:00 and 24:00.": (
            "Open XX0X, not XX1X.", "von 9:00 bis 17:00 Uhr", "zwischen 0:00 und 24:00 Uhr"),
        "The invoice is due on December 24, 2025.": ("The invoice is due XX0X.", "am 24. Dezember 2025"),
        "Pay by 12/24/2025 or 24/12/2025.": ("Pay XX0X or XX1X.", "bis zum 24.12.2025", "24.12.2025"),
        # a template's placeholder named for a date or a time (was "auf {date}", "am {time}")
        "Arrives on {date} at {start_time}, valid until %(expiry_date)s.": (
            "Arrives XX0X, valid XX1X.", "am {date} um {start_time}", "bis zum %(expiry_date)s"),
        "Sent on $date by $sender.": ("Sent XX0X by XX1X.", "am $date", "$sender"),  # PHP's (was "Auf $date")
        # ISO 8601 after a preposition (was "auf 2024-05-01"); alone a value as often
        "Paid on 2024-05-01, valid until 2025-12-31, date 2024-05-01.": (
            "Paid XX0X, valid XX1X, date XX2X.", "am 01.05.2024", "bis zum 31.12.2025", "2024-05-01"),
        "Released 3rd March 2024, updated Sept. 9.": ("Released XX0X, updated XX1X.", "3. März 2024", "9. September"),
        "We meet on the 3rd of June, not at the 5th of May.": (
            "We meet XX0X, not at the XX1X.", "am 3. Juni", "5. Mai"),
        "It costs $19.99, €5 or £2,000.": ("It costs XX0X, XX1X or XX2X.", "19,99 $", "5 €", "2.000 £"),
        "It costs $10/mo or €100/year.": ("It costs XX0X or XX1X.", "10 $/Monat", "100 €/Jahr"),  # was "/mo"
        "The store is closed on Sunday.": ("The store is closed XX0X.", "am Sonntag"),
        "Meet us **on Friday** at 5 p.m.": ("Meet us **XX0X** XX1X.", "am Freitag", "um 17 Uhr"),
        "Meet <b>on Friday</b> at 5 p.m.": ("Meet XX0X.", "<b>am Freitag</b> um 17 Uhr"),  # an item with tags
        "Hello, how are you?": ("XX0X, how are you?", "Hallo"),  # a greeting opening a sentence, a mark after it
        "Hi there, sorry, it failed.": ("XX0X, sorry, it failed.", "Hallo"),
        "Oops! Oh no, it failed.": ("XX0X, it failed.", "Hoppla! Oh nein"),  # was "Hör!", "Ohne"
        "Great! Never mind, it works.": ("XX0X, it works.", "Super! Schon gut"),  # was "Alles!"
        "Of course, it works.": ("XX0X, it works.", "Natürlich"),  # was "Ohne Katze"
        "On Mondays we work from Monday to Friday, on Friday at 5 p.m.": (
            "XX0X we work XX1X, XX2X.", "Montags", "von Montag bis Freitag", "am Freitag um 17 Uhr"),
        "Open Tuesday to Sunday, Monday-Friday 9 a.m. - 5 p.m.": (  # was "heute heute", "9 Uhr. - 17 Uhr."
            "Open XX0X, XX1X - XX2X.", "Dienstag bis Sonntag", "Montag–Freitag 9 Uhr", "17 Uhr"),
        # a day abbreviated before a date or in a range (was "Frei, 3. Januar", "Mon. - Freund.")
        "Due: Fri, Jan 3, shipped Tue., 5 March 2026.": (
            "Due: XX0X, shipped XX1X.", "Fr., 3. Januar", "Di., 5. März 2026"),
        "Q: How do I log in?": ("XX0X: How do I log in?", "F"),  # was "Q:"
        # a day after a time goes before it (the model dropped "tomorrow": "Die Sitzung ist um 15 Uhr.")
        "The meeting is at 3 p.m. tomorrow.": ("The meeting is XX0X.", "morgen um 15 Uhr"),
        "At 9 a.m. today, open until 6:00 tonight.": ("XX0X, open XX1X.", "Heute um 9 Uhr", "heute bis 6:00 Uhr"),
        "Open Mon. - Fri. and Sat-Sun.": ("Open XX0X and XX1X.", "Mo.–Fr.", "Sa.–So"),  # the dot: the sentence's
        "It moved from Tuesday to Thursday, not from 3 p.m. to 4 p.m.": (  # was "von Dienstag bis Donnerstag"
            "It moved XX0X, not XX1X.", "von Dienstag auf Donnerstag", "von 15 Uhr bis 16 Uhr"),
        "It was postponed from 3 p.m. to 4 p.m.": ("It was postponed XX0X.", "von 15 Uhr auf 16 Uhr"),
        "Your letter of March 3 arrived.": ("Your letter XX0X arrived.", "vom 3. März"),  # was "von 3. März"
        "Call us (8 a.m. to 6 p.m.).": ("Call us (XX0X).", "8 Uhr bis 18 Uhr"),  # was "18 Uhr.)."
        "The evening of May 5 was warm.": ("The evening of XX0X was warm.", "5. Mai"),  # "des 5. Mai", not "vom"
        "Open from 9 a.m. to noon, at noon and until midnight.": (  # was "auf Noon"
            "Open XX0X, XX1X and XX2X.", "von 9 Uhr bis Mittag", "mittags", "bis Mitternacht"),
        "The law was passed in March 2024.": ("The law was passed XX0X.", "im März 2024"),  # was "in March 2024"
        "We move in June, open from March to May.": ("We move XX0X, open XX1X.", "im Juni", "von März bis Mai"),
        "The invoice for March is due.": ("The invoice XX0X is due.", "für März"),  # was "für March"
        "The store opened in 1998.": ("The store opened XX0X.", "1998"),  # German writes the year alone
        "In 1920 Poland was at war, but not since 2015.": (
            "XX0X was at war, but not XX1X.", "1920 Polen", "seit 2015"),
        "It was built between 1990 and 1995.": ("It was built XX0X.", "zwischen 1990 und 1995"),  # was "1990 1995"
        "It earned 2 billion dollars, $2.5 billion.": (  # was "2 Dokumente", "$2,5"
            "It earned XX0X, XX1X.", "2 Milliarden Dollar", "2,5 Milliarden $"),
        "It raised €5 million, £2.5bn, 1 million euros.": (
            "It raised XX0X, XX1X, XX2X.", "5 Millionen €", "2,5 Mrd. £", "1 Million Euro"),
        # a form in one item with a name or a placeholder before it (was "besuchte Berlin on Tuesday")
        "He visited Berlin on Tuesday.": ("He visited XX0X.", "Berlin am Dienstag"),
        "Zoë left Microsoft in 1975.": ("XX0X left XX1X.", "Zoë", "Microsoft 1975"),
        "Meet %s on Friday, {event} at 5 p.m.": ("Meet XX0X, XX1X.", "%s am Freitag", "{event} um 17 Uhr"),
        "See https://example.com on Friday.": ("See XX0X.", "https://example.com am Freitag"),
    }
    for text, (segment, *german) in cases.items():
        prepared = prepare(text)
        assert prepared.segments == [segment], text
        expected = segment
        for number, value in enumerate(german):
            expected = expected.replace(f"XX{number}X", value)
        assert prepared.restore(prepared.segments) == expected, text
    # What could be something else stays as written: "$1" (a shell's or a pattern's argument), "15mn" (minutes), a date
    # either way round, a time in code, with seconds or without "a.m."/"p.m." or a preposition, a modal "May", a day
    # without a preposition or before a time of day ("Montagnachmittag"), a count after "in", a name after a month's
    # preposition, a month alone, forms in code.
    for text in ("Use $1 and $2 here.", "Due 03/04/2025.", "Wait 15mn.",
                 "Run `at 5pm` now.", "It ran 10:30.", "Stop at 10:30:15.", "Skip to 1:30 hours.",
                 "Not between 10:00.", "The noon meeting.",
                 "May I have 2 more?", "Page 5 a b",
                 "Monday is fine.", "See you on Monday afternoon.", "Open by Fridays.", "Hello World!", "Say hello.",
                 "Split it in 1024 MB chunks.", "Found in 2048 files.", "Ask by Jan or by August Strindberg.",
                 "The March of Time", "It must be between 1582 and 19999.", "Run <code>at 5 p.m.</code> now.",
                 "Run `Berlin on Friday` now.", "# Run\n\nRun this:\n\n    at 5pm\n    Berlin on Friday\n\nDone.",
                 "Open log-2024-05-01.txt at 2024-05-01.", "Not on 2024-13-01.", "Delivered on %s.",
                 "Run at {timeout}, meet at {place}, not of {date}.", "Mon-Khmer and the Sun, Mon and Sat.",
                 "Date: Sat, 12 Apr 2025 10:00:00 GMT", "At 14 Aug 2006 02:34:56 -0600.", "Copy Q: to D:.",
                 "Q:", "See Pros: below.", "Meet at 10:30:15 today."):
        prepared = prepare(text)
        assert prepared.restore(prepared.segments) == text, text
    assert prepare("at 5 p.m.", preserve_placeholders=False).segments == ["at 5 p.m."]
    assert prepare("Pros:\n- Fast\nCons:\n- Slow").restore(["Schnell", "Langsam"]) == (
        "Vorteile:\n- Schnell\nNachteile:\n- Langsam")  # was "Konsum:"


def test_places_come_back_with_their_german_names_and_prepositions():
    """The model chose a place's preposition badly and broke names German writes otherwise ("The train to Munich was
    late." came back as "Der Zug zum Munich war später.", "She comes from France." as "Sie kommt von Frankreich.",
    "Welcome to Berlin!" as "Willkommen zu Berlin!"): each, with its preposition, is an item as German writes it."""
    _restored_as_written({
            "The train to Munich was late.": "The train nach München was late.",
            "He flew from Rome to Warsaw via Vienna.": "He flew von Rom nach Warschau über Wien.",  # a route: "von"
            "Greetings from Munich! Welcome to Berlin!": "Greetings aus München! Welcome in Berlin!",
            "I have never been to Peru.": "I have never been in Peru.",
            "We stayed in the Netherlands and in Switzerland.": "We stayed in den Niederlanden and in der Schweiz.",
            "She moved to Switzerland, he to the United States.": "She moved in die Schweiz, he in die USA.",
            "They live near Nuremberg in Bavaria.": "They live bei Nürnberg in Bayern.",
            "We visited Venice and Milan.": "We visited Venedig and Mailand.",  # alone where German names it otherwise
            "Munich is beautiful.": "München is beautiful.", "Arabic (Syria)": "Arabic (Syrien)",
            "go to New York or Mexico City": "go nach New York or Mexiko-Stadt",
            # "to" of another word, or before a setting's value ("auf"), stays the model's
            "I moved to the U.S. last year, she to the UK.": "I moved in die USA letztes Jahr, she nach Großbritannien.",
            "She lives in the US. It rains.": "She lives in den USA. It rains.",  # its dot stays the sentence's
            "It is next to Munich.": "It is next to München.", "It applies to Italy.": "It applies to Italien.",
            "Set the region to France.": "Set the region to Frankreich.",
            # a list item's first word starts a sentence, not a name ("Visit Munich" is no "New Mexico")
            "Trips:\n  - Visit Munich.\n  2) Visit Rome.": "Trips:\n  - Visit München.\n  2) Visit Rom."},
                         # A place German names alike, or with an article, without a preposition; a first name; a
                         # place that describes a noun (German joins them: "Warschauer"); part of a longer name, a
                         # file's or an address.
                         ("Berlin is big.", "Switzerland is nice.", "Florence said no.", "The Warsaw ghetto.",
                          "Our Vienna office is open.", "New Mexico is hot.", "East Germany ended.",
                          "Meet at Munich Airport.", "Call Paris Hilton.", "Open Berlin.txt or @Rome.",
                          "the Munich-based firm", "Sold to US customers.", "Sold to U.S. customers.",
                          "The UK voted.", "The Czech Republic is small."))  # "the" of a name without a preposition


def _restored_as_written(written: dict[str, str], kept: tuple[str, ...]) -> None:
    """Each text of `written` restored from its own segments (as a model that copies them) as the German form there,
    each of `kept` as it is."""
    for text, german in written.items():
        prepared = prepare(text)
        assert prepared.restore(prepared.segments) == german, text
    for text in kept:
        prepared = prepare(text)
        assert prepared.restore(prepared.segments) == text, text


def test_abbreviations_come_back_as_german_writes_them():
    """The model kept "e.g." and "approx." English and lost "i.e." with the rest of its sentence ("Enter your email
    address, i.e. the one you used to register." came back as "Geben Sie Ihre E-Mail-Adresse ein, .. Sie haben ..."),
    and a number's "No." ("Invoice No. 12345" as "Rechnungsart 12345"). Each is an item as German writes it, a Latin
    one's comma gone, a capital only where a sentence starts, and an item of its own beside another item, which would
    otherwise keep both English."""
    assert prepare('Use a tag (e.g. "math") here.').protected == ["e.g.", '"math"']
    _restored_as_written({"E.g. this works.": "Z.B. this works.", "Enter a name, i.e. the file name.":
                          "Enter a name, d.h. the file name.", "Approx. 3 hours remaining.": "Ca. 3 hours remaining.",
                          "Select a format (e.g., PNG or JPEG).": "Select a format (z.B. PNG or JPEG).",
                          "Pick one (E.g. PNG). I.e. this": "Pick one (z.B. PNG). D.h. this",
                          'Use a tag (e.g. "math") here.': 'Use a tag (z.B. "math") here.',
                          "1 byte (approx. %d%%)": "1 byte (ca. %d%%)", "Invoice No. 12345": "Invoice Nr. 12345",
                          "Latin alphabet no.1": "Latin alphabet Nr. 1", "see p. 12": "see S. 12",
                          "See pp. 2-4 and Fig. 3.": "See S. 2-4 and Abb. 3.",
                          "Price incl. VAT, shipping excl. tax": "Price inkl. VAT, shipping exkl. tax",
                          # a sentence starts a list item, indented or not; spaces alone start none
                          "Formats:\n  - E.g. PNG\n    E.g. GIF": "Formats:\n  - Z.B. PNG\n    Z.B. GIF",
                          "PNG          E.g. GIF": "PNG          z.B. GIF"},
                         # code, part of a name, no abbreviation, no sentence going on after it, no number after it;
                         # a volume, a channel or seconds
                         ("Use `e.g. x` here.", "file.e.g. x", "ie. done", "e.g.", "She said i.e.\nNo.",
                          "No. of files", "Vol. 2, Ch. 4, Sec. 1", "Press P. 5 more", "Total (incl.)"))


def test_a_day_of_a_month_in_words_comes_back_as_german_writes_it():
    """Read, the model wrote a day in words as another word or number ("on the fourth of July" came back as "am
    Viertel Juli", "on the twenty-first of March" as "am zwanzigsten March"); German writes the day as a number with
    its full stop, as for a day in digits. Not an ordinal before another noun, nor a name's capital."""
    _restored_as_written({"I was born on the fourth of July.": "I was born am 4. Juli.",
                          "on the twenty-first of March": "am 21. März", "on May third": "am 3. Mai",
                          "by the thirty-first of December 2025": "bis zum 31. Dezember 2025"},
                         ("the second of many", "on the first day", "First of October Group"))


def test_a_time_ago_comes_back_as_german_writes_it():
    """Read in a sentence, the model dropped or moved the "vor" ("Last updated: 2 hours ago" came back as "Zuletzt
    aktualisiert: 2 Stunden", "Since %d days ago" as "Vor %d Tage"). A time ago is "vor" and the dative, "since" one
    "seit"; a capital where the English has one, or where a number starts a sentence that goes on."""
    _restored_as_written({"Last updated: 2 hours ago": "Last updated: vor 2 Stunden", "5 minutes ago": "vor 5 Minuten",
                          "Since %d days ago": "Seit %d Tagen",
                          "Edited {count} minutes ago": "Edited vor {count} Minuten",
                          "Modified %s ago": "Modified vor %s", "An hour ago, it broke.": "Vor einer Stunde, it broke.",
                          "2 days ago, we met.": "Vor 2 Tagen, we met.", "a few years ago": "vor einigen Jahren",
                          "Opened over a month ago": "Opened vor über einem Monat", "1 day ago": "vor 1 Tag",
                          "only three weeks ago": "erst vor drei Wochen", "About 2 hours ago": "Vor etwa 2 Stunden",
                          "a decade ago": "vor einem Jahrzehnt", "Seen 5 min ago": "Seen vor 5 Minuten",  # no "s"
                          "1 min ago": "vor 1 Minute", "%d hr ago": "vor %d Stunden",
                          "Half an hour ago": "Vor einer halben Stunde"},  # (HALVES': not "Half vor einer Stunde")
                         ("long ago", "two month's ago", "the agony ago", "items2 days ago"))


def test_a_time_ago_counted_in_words_or_not_counted_comes_back_as_german_writes_it():
    """Read, the model made another number of a count in words ("The company was founded fifty years ago." came back as
    "... vor fünf Jahren fünfzig", "two hundred years ago" as "vor zwei hundert Jahren", "eighteen years ago" as "vor
    acht Jahren") and dropped a time without a count ("I read the book years ago.": "Vor dem Buch gelesen.", "A long
    time ago" as "Vor langem Zustand"). German writes a count in words as one word; a unit alone in the plural, after
    no count of another kind."""
    _restored_as_written({"fifty years ago": "vor fünfzig Jahren", "eighteen years ago": "vor achtzehn Jahren",
                          "two hundred years ago": "vor zweihundert Jahren",
                          "more than a hundred years ago": "vor mehr als hundert Jahren",
                          "a hundred and fifty years ago": "vor hundertfünfzig Jahren",
                          "almost two thousand years ago": "vor fast zweitausend Jahren",
                          "Ten thousand years ago": "Vor zehntausend Jahren",
                          "twenty-five thousand years ago": "vor fünfundzwanzigtausend Jahren",
                          "many years ago": "vor vielen Jahren", "hundreds of years ago": "vor Hunderten von Jahren",
                          "He left hours ago.": "He left vor Stunden.",
                          "Years ago, I lived here.": "Vor Jahren, I lived here.",
                          "three centuries ago": "vor drei Jahrhunderten", "a century ago": "vor einem Jahrhundert",
                          "centuries ago": "vor Jahrhunderten", "A long time ago, there was a king.":
                              "Vor langer Zeit, there was a king.",
                          "quite a while ago": "vor einer ganzen Weile", "some time ago": "vor einiger Zeit"},
                         ("a million years ago", "umpteen days ago", "all these years ago", "long ago"))


def test_a_time_of_day_in_words_comes_back_as_german_says_it():
    """Read, the model lost the hour or garbled the rest ("leaves at half past eight" came back as "schlägt nach acht
    vorbei", "at a quarter past four" as "nach vier lange vorbei") or said the half hour of the wrong hour ("It is half
    past ten.": "Es ist halb zehn."). German says the half hour of the next ("halb elf"); minutes "to" an hour only
    after a preposition or "is", not a range ("from one to three"), and an hour "o'clock" not before a noun it
    describes ("a five o'clock shadow")."""
    _restored_as_written({"The train leaves at half past eight.": "The train leaves um halb neun.",
                          "It starts at ten o'clock.": "It starts um zehn Uhr.",
                          "Call me at a quarter past four.": "Call me um Viertel nach vier.",
                          "It begins at a quarter to eight.": "It begins um Viertel vor acht.",
                          "He arrived at ten to nine.": "He arrived um zehn vor neun.",
                          "It is half past ten.": "It is halb elf.", "It's ten to nine.": "It's zehn vor neun.",
                          "Half past twelve is fine.": "Halb eins is fine.", "at one o'clock": "um ein Uhr",
                          "until twenty-five past six": "bis fünfundzwanzig nach sechs",
                          "at half past 8 tomorrow": "morgen um halb 9",
                          "Be there at ten o'clock sharp.": "Be there um Punkt zehn Uhr.",
                          # the part of the day after it, German's adverb after it ("at seven in the morning" came
                          # back as "am Morgen auf den gesehenen Morgen")
                          "We get up at seven in the morning.": "We get up um sieben Uhr morgens.",
                          "It closes at 10 in the evening.": "It closes um 10 Uhr abends.",
                          "at 8:30 in the morning": "um 8:30 Uhr morgens", "at eleven at night": "um elf Uhr nachts",
                          "at seven o'clock in the morning": "um sieben Uhr morgens",
                          "at half past seven in the evening": "um halb acht abends",
                          "It is three in the afternoon.": "It is drei Uhr nachmittags."},
                         ("Count from one to ten.", "He gave ten to nine charities.", "in the past ten years",
                          "a quarter of the pie", "five past issues", "a five o'clock shadow", "We met in the morning.",
                          "I put seven in the box."))


def test_a_form_in_a_web_page_comes_back_as_in_plain_text():
    """A page escapes an apostrophe ("o&#x27;clock"), and the form came back in English where the same text in plain
    text had its German: the reference, an item, cut the form in pieces. A form holding a reference is one item."""
    for text in ("Can you finish the work by five o'clock?", "It's ten to nine.", "We met at 5 o'clock.",
                 "I've been waiting for an hour."):
        plain, page = prepare(text), prepare(html.escape(text), html=True)
        assert html.unescape(page.restore(page.segments)) == plain.restore(plain.segments) != text, text


def test_a_number_in_words_from_thirteen_comes_back_as_german_writes_it():
    """Read, the model kept the tens alone or made another number ("He is twenty-five years old." came back as "Er ist
    zwanzig Jahre alt.", "He has eighteen cousins." as "Er hat acht Cousins.", "two hundred students" as "zwei hundert
    Studenten"), and a time ago took the ones alone ("twenty-five years ago": "twenty-vor fünf Jahren"). German writes
    a number as one word, the ones first; not two to twelve, which the model wrote well, nor an ordinal, a number inside
    a compound or a longer number, a decade's, a noun after an article ("a fifty": a banknote) or a name's."""
    _restored_as_written({"He is twenty-five years old.": "He is fünfundzwanzig years old.",
                          "Twenty-one people came.": "Einundzwanzig people came.", "forty-two": "zweiundvierzig",
                          "twenty-five years ago": "vor fünfundzwanzig Jahren",
                          "Since thirty-one days ago": "Seit einunddreißig Tagen",
                          "He has eighteen cousins.": "He has achtzehn cousins.",
                          "Fifteen people came.": "Fünfzehn people came.", "She is seventy.": "She is siebzig.",
                          "two hundred students": "zweihundert students", "a hundred people": "hundert people",
                          "one hundred and twenty-five": "einhundertfünfundzwanzig",
                          "three hundred and fifty pages": "dreihundertfünfzig pages",
                          "a thousand inhabitants": "tausend inhabitants",
                          "fifty thousand people": "fünfzigtausend people",
                          "between forty and fifty": "between vierzig and fünfzig"},
                         ("twenty-first", "a twenty-five-year-old man", "twenty five", "seventy-seventh",
                          "She has three children.", "one hundred and twenty five", "fifty million people",
                          "He was born in nineteen eighty-four.", "the nineteen eighties", "Can you break a fifty?",
                          "the Twenty Questions game", "Fifteen Puzzle", "sixteenth", "a few hundred"))


def test_how_long_a_thing_has_gone_on_comes_back_with_germans_seit():
    """Read, the model wrote "für" and the accusative or dropped it ("She has been working at the hospital for ten
    years." came back as "... im Krankenhaus für zehn Jahre."). "For" a time after a perfect's continuous form or a
    state's ("have lived") is German's "seit" and the dative; not where nothing goes on ("booked a room for two
    nights", "postponed for two weeks")."""
    _restored_as_written({"She has been working here for ten years.": "She has been working here seit zehn Jahren.",
                          "He has been waiting for an hour.": "He has been waiting seit einer Stunde.",
                          "I've been looking for my keys for 20 minutes.":
                              "I've been looking for my keys seit 20 Minuten.",
                          "I have known him for twenty-five years.": "I have known him seit fünfundzwanzig Jahren.",
                          "He had been waiting for a day.": "He had been waiting seit einem Tag.",
                          # a count in words, a unit alone in the plural, a time without a count, a qualifier
                          "We have lived here for fifty years.": "We have lived here seit fünfzig Jahren.",
                          "I have lived here for years.": "I have lived here seit Jahren.",
                          "They have known each other for a long time.":
                              "They have known each other seit langer Zeit.",
                          "I have been waiting for about an hour.": "I have been waiting seit etwa einer Stunde.",
                          "She has been teaching for more than twenty years.":
                              "She has been teaching seit mehr als zwanzig Jahren."},
                         ("I have booked a room for two nights.", "The meeting has been postponed for two weeks.",
                          "We stayed for two weeks.", "It has been raining. Wait for two hours.",
                          "I have been to the coast for two weeks."))


def test_a_state_after_been_and_what_one_has_had_go_on_too():
    """The model wrote "have been married for twenty years" as "für zwanzig Jahre verheiratet": a state after "been"
    (an adjective, a noun after an article, a place after a preposition) and what one has had, owned, used, studied,
    taught or played go on, with German's "seit"."""
    _restored_as_written({"We have been married for twenty years.": "We have been married seit zwanzig Jahren.",
                          "She has been a member for five years.": "She has been a member seit fünf Jahren.",
                          "The shop has been closed for two weeks.": "The shop has been closed seit zwei Wochen.",
                          "It has been in development for three years.":
                              "It has been in development seit drei Jahren.",
                          "He has had this car for ten years.": "He has had this car seit zehn Jahren.",
                          "I've used it for a year.": "I've used it seit einem Jahr."},
                         ("It has been postponed for two weeks.", "She has been to the coast for a week."))


def test_a_part_of_a_month_or_a_year_comes_back_as_german_names_it():
    """Read, the model wrote it word by word ("at the end of June" came back as "am Ende Juni", "at the beginning of
    September" as "am Anfang des Septembers", "in mid-August" as "mit Mitte des Augusts"). German names the part without
    a preposition or an article, after "bis", "seit", "ab" where English bounds it; not the end of a day, a month
    before a name, nor a part an article makes an adjective of ("an early March release")."""
    _restored_as_written({"It takes place at the end of June.": "It takes place Ende Juni.",
                          "We move in mid-August.": "We move Mitte August.",
                          "Due by the end of May 2026": "Due bis Ende Mai 2026",
                          "At the end of the year, we met.": "Ende des Jahres, we met.",
                          "since the beginning of the week": "seit Anfang der Woche",
                          "from the start of the month": "ab Anfang des Monats",
                          "in early 2024": "Anfang 2024", "It was late March.": "It was Ende März.",
                          "in the middle of October": "Mitte Oktober"},
                         ("at the end of the day", "the end of August Strindberg", "an early March release",
                          "the end of 1999s", "mid-range", "in late spring"))


def test_every_so_many_units_and_the_days_around_come_back_as_german_writes_them():
    """Read, the model wrote "jede" before a number as often ("The bus comes every 20 minutes." came back as "... jede
    20 Minuten.") and the day after tomorrow word by word ("den Tag nach morgen"). German's "alle" and the plural,
    "jeden zweiten Tag", "übermorgen", "vorgestern"."""
    _restored_as_written({"The bus comes every 20 minutes.": "The bus comes alle 20 Minuten.",
                          "Every %d seconds": "Alle %d Sekunden", "every fifteen minutes": "alle fünfzehn Minuten",
                          "every few days": "alle paar Tage", "every couple of weeks": "alle paar Wochen",
                          "every other day": "jeden zweiten Tag", "every other year": "jedes zweite Jahr",
                          "every other Tuesday": "jeden zweiten Dienstag", "every second day": "jeden zweiten Tag",
                          "We meet the day after tomorrow.": "We meet übermorgen.",
                          "The day before yesterday was fine.": "Vorgestern was fine.",
                          "closed until the day after tomorrow": "closed bis übermorgen"},
                         ("every 5 min", "every one minute", "every day", "the day after tomorrow's game",
                          "every second"))


def test_an_amount_of_time_per_period_or_changed_by_comes_back_as_german_writes_it():
    """Read, the model wrote a rate's article as a number ("twenty-four hours a day" came back as "vierundzwanzig
    Stunden ein Tag") and a change's "by" as "von" ("delayed by twenty minutes": "von zwanzig Minuten verzögert").
    German's "am Tag", "pro Woche" and "um" with the accusative; a change only after what delays, advances, lengthens
    or shortens a thing."""
    _restored_as_written({"It is open twenty-four hours a day.": "It is open vierundzwanzig Stunden am Tag.",
                          "We train three days a week.": "We train drei Tage pro Woche.",
                          "one day a week": "einen Tag pro Woche", "40 hours per week": "40 Stunden pro Woche",
                          "The meeting was postponed by two weeks.": "The meeting was postponed um zwei Wochen.",
                          "delayed by a month": "delayed um einen Monat",
                          "It was brought forward by a day.": "It was brought forward um einen Tag."},
                         ("Sort by 5 days", "He called me by two weeks", "paid by the hour"))


def test_a_time_and_a_half_and_a_quarter_of_an_hour_come_back_as_german_writes_them():
    """Read, the model wrote them word by word or lost the half ("an hour and a half" came back as "eine Stunde und
    eine Hälfte", "two and a half hours" as "zwei Stunden"). German's one word, the plural's dative after a preposition
    that asks it; not before "ago"."""
    _restored_as_written({"The film lasted an hour and a half.": "The film lasted eineinhalb Stunden.",
                          "It takes two and a half hours.": "It takes zweieinhalb Stunden.",
                          "in two and a half years": "in zweieinhalb Jahren",
                          "Wait a quarter of an hour.": "Wait eine Viertelstunde.",
                          "in a quarter of an hour": "in einer Viertelstunde",
                          "Three quarters of an hour passed.": "Eine Dreiviertelstunde passed.",
                          "She has lived there for a year and a half.": "She has lived there for eineinhalb Jahre.",
                          "Half an hour later, it stopped.": "Eine halbe Stunde later, it stopped.",
                          "We waited half a day.": "We waited einen halben Tag.",
                          "The course takes half a year.": "The course takes ein halbes Jahr.",
                          "after half a minute": "after einer halben Minute",
                          "I called half an hour ago.": "I called vor einer halben Stunde.",
                          "About half an hour later": "Etwa eine halbe Stunde later"},
                         ("an hour and a half ago", "a half", "two and a half", "one and a half times",
                          "the half a day", "half a dozen"))


def test_an_amount_in_a_unit_the_model_wrote_wrong_comes_back_as_german_writes_it():
    """Read, the model changed the unit or lost it ("10 miles" came back as "10 Kilometer", "10 feet high" as "10
    hoch", "15 inches" as "15 in Schach", "200 grams of flour" as "200 Gramms von Flammen"). German's unit after the
    number, in its decimal comma, the count in words in German's, without the "of" before what is measured; feet only
    after digits, and not the units the model writes well."""
    _restored_as_written({"He ran 26 miles.": "He ran 26 Meilen.",
                          "The wall is 10 feet high.": "The wall is 10 Fuß high.",
                          "It is 2.5 inches wide.": "It is 2,5 Zoll wide.",
                          "Add 200 grams of flour.": "Add 200 Gramm flour.",
                          "The island is twelve miles wide.": "The island is zwölf Meilen wide.",
                          "It weighs 1,500 kilograms.": "It weighs 1.500 Kilogramm.", "only 1 mile": "only 1 Meile",
                          "3 tonnes of sand": "3 Tonnen sand", "Pour 16 ounces of water.": "Pour 16 Unzen water.",
                          "within 5 miles of the city": "within 5 Meilen of the city"},
                         ("He landed on his two feet.", "The lake is 40 meters deep.", "It costs 5 pounds.",
                          "It is 30 degrees.", "a 5-mile walk", "10 milestones"))


def test_a_stretch_of_time_next_to_now_comes_back_as_german_writes_it():
    """Read, the model wrote the accusative, another preposition or the article's gender ("over the past five years"
    came back as "die letzten fünf Jahre", "during the last three months" as "bei den letzten drei Monaten", "in the
    last decade" as "in der letzten Jahren"). German's "in" and the dative after "over" and "during", and after "in"
    before one unit; not "in" before a count, which the model writes well, nor a stretch without a preposition."""
    _restored_as_written({"Prices rose over the past five years.": "Prices rose in den vergangenen fünf Jahren.",
                          "Sales grew during the last three months.": "Sales grew in den letzten drei Monaten.",
                          "It grew in the last decade.": "It grew im letzten Jahrzehnt.",
                          "I read it in the past week.": "I read it in der vergangenen Woche.",
                          "over the next few days": "in den nächsten Tagen",
                          "During the following years, it grew.": "In den folgenden Jahren, it grew.",
                          "over the last 24 hours": "in den letzten 24 Stunden"},
                         ("in the next two weeks", "the last ten years were hard", "in the last few days",
                          "over the last straw"))


def test_an_hour_alone_after_at_comes_back_as_german_says_it_where_a_time_is_meant():
    """Read, the model wrote "auf" or lost the hour ("The shop opens at nine." came back as "Das Geschäft öffnet auf
    neun."): an hour in words alone after "at" is "um" and the hour where what comes before or after says a time (a
    verb of opening or leaving, a meal, "tonight", "sharp"); not an age."""
    _restored_as_written({"The shop opens at nine.": "The shop opens um neun Uhr.",
                          "Dinner is at six.": "Dinner is um sechs Uhr.",
                          "Call me at four tomorrow.": "Call me morgen um vier Uhr.",
                          "The lesson begins at ten sharp.": "The lesson begins um Punkt zehn Uhr.",
                          "They arrive at three today, I think.": "They arrive heute um drei Uhr, I think."},
                         ("He learned to read at five.", "She started school at six.", "At eleven, he moved.",
                          "The shop opens at nine dollars.", "It stops at one of them."))


def test_a_decade_comes_back_as_german_writes_it():
    """Read, the model lost it or wrote another number ("in the 1980s" came back as "1980er", "in the sixties" as "in
    den sechsten Jahren"). German's "-er Jahre" with the preposition's case, a part of it before ("Anfang der 2000er
    Jahre"); not a temperature's or a score's tens, nor a part after "of"."""
    _restored_as_written({"It was popular in the 1980s.": "It was popular in den 1980er Jahren.",
                          "He grew up in the '90s.": "He grew up in den 90er Jahren.",
                          "It dates from the 1920s.": "It dates aus den 1920er Jahren.",
                          "In the early 2000s, it changed.": "Anfang der 2000er Jahre, it changed.",
                          "She was born in the mid-1970s.": "She was born Mitte der 1970er Jahre.",
                          "It was a hit in the sixties.": "It was a hit in den sechziger Jahren.",
                          "The 1980s were great.": "Die 1980er Jahre were great.",
                          "closed since the late 90s": "closed seit Ende der 90er Jahre",
                          "music of the 1960s": "music der 1960er Jahre"},
                         ("Temperatures will be in the 80s.", "a woman in her 30s", "one of the late 1990s",
                          "the nineteen eighties", "the 1980s-era car"))


def test_an_age_after_the_age_of_comes_back_as_german_says_it():
    """Read, the model wrote "am" or "bei der" and dropped "Jahren" ("She retired at the age of 65." came back as "...
    am Alter von 65."). German says it with the preposition before it: "im Alter von", "unter", "über", "ab", "mit"."""
    _restored_as_written({"She retired at the age of 65.": "She retired im Alter von 65 Jahren.",
                          "At the age of 18, he moved.": "Im Alter von 18 Jahren, he moved.",
                          "Children under the age of 12 pay less.": "Children unter 12 Jahren pay less.",
                          "from the age of ten": "ab zehn Jahren", "by the age of seven": "mit sieben Jahren",
                          "at the age of one": "im Alter von einem Jahr",
                          "over the age of 60 years old": "über 60 Jahren",
                          "until the age of twenty-five": "bis zum Alter von fünfundzwanzig Jahren"},
                         ("the age of consent", "at the age of the universe", "in the age of 5G"))


def test_how_far_a_place_is_in_minutes_on_foot_or_by_car_comes_back_as_one_german_word():
    """Read, the model wrote the English compound ("a 10-minute walk" came back as "ein 10-Minute-Seiten"): German's
    "Gehminuten" and "Autominuten", without the article."""
    _restored_as_written({"The hotel is a 10-minute walk away.": "The hotel is 10 Gehminuten away.",
                          "a five-minute drive": "fünf Autominuten", "a one-minute walk": "eine Gehminute",
                          "A 20-minute walk leads there.": "20 Gehminuten leads there."},
                         ("a 10-minute break", "a 10-minute walkthrough", "a 10 minute walk"))


def test_an_amount_of_money_for_each_period_comes_back_as_german_writes_it():
    """Read, the model lost the period or wrote its article ("He earns 3,000 euros a month." came back as "Er verdient
    3.000 Euro."): German's amount, currency after it, and "pro"."""
    _restored_as_written({"He earns 3,000 euros a month.": "He earns 3.000 Euro pro Monat.",
                          "The room costs $80 a night.": "The room costs 80 $ pro Nacht.",
                          "It costs 1 euro per person.": "It costs 1 Euro pro Person.",
                          "at €5.50 per hour": "at 5,50 € pro Stunde"},
                         ("5 euros a piece", "a month", "3 apples a day"))


def test_the_verb_comes_before_its_subject_after_an_adverbial_that_opens_a_sentence():
    """Read as an item with its comma, an adverbial that opens a sentence ("However,", "Therefore,", a form of time or
    place: "Last year,", "In 2020,") left the model's German in English's order ("However, the update failed." came
    back as "Allerdings, die Aktualisierung ist fehlgeschlagen."): German puts the finite verb before its subject
    there, and no comma. Not where the word after the subject is no verb (an adverb, a conjunction, a preposition, a
    participle) or the clause ends with its verb, nor after "In other words" or a greeting."""
    cases = {"However, the update failed.": ("XX0X, die Aktualisierung ist fehlgeschlagen.",
                                             "Allerdings ist die Aktualisierung fehlgeschlagen."),
             "Therefore, you must restart.": ("XX0X, Sie müssen neu starten.", "Deshalb müssen Sie neu starten."),
             "Of course, it is free.": ("XX0X, Es ist kostenlos.", "Natürlich ist es kostenlos."),
             "In addition, Firefox supports it.": ("XX0X, Firefox unterstützt es.", "Außerdem unterstützt Firefox es."),
             "However, %s failed.": ("XX0X, XX1X ist fehlgeschlagen.", "Allerdings ist %s fehlgeschlagen."),
             "By the way, I found it.": ("XX0X, habe ich es gefunden.", "Übrigens habe ich es gefunden."),
             "However, the new version needs more memory.": ("XX0X, die neue Version braucht mehr Speicher.",
                                                             "Allerdings braucht die neue Version mehr Speicher."),
             "However, the update failed!": ("XX0X, die Aktualisierung fehlgeschlagen!",
                                             "Allerdings, die Aktualisierung fehlgeschlagen!"),
             "However, if you want, it works.": ("XX0X, wenn Sie möchten, funktioniert es.",
                                                 "Allerdings, wenn Sie möchten, funktioniert es."),
             "However, the duty for it stays.": ("XX0X, die Pflicht für es bleibt.",
                                                 "Allerdings, die Pflicht für es bleibt."),
             "However, your other computer works.": ("XX0X, die Ihren anderen Computer funktioniert.",
                                                     "Allerdings, die Ihren anderen Computer funktioniert."),
             "In other words, it works.": ("XX0X, es funktioniert.", "Mit anderen Worten, es funktioniert."),
             "Last year, the company grew.": ("XX0X, die Firma wuchs.", "Letztes Jahr wuchs die Firma."),
             "In 2020, the project was started.": ("XX0X, das Projekt wurde gestartet.",
                                                   "2020 wurde das Projekt gestartet."),
             "Two years ago, we moved.": ("XX0X, wir sind umgezogen.", "Vor zwei Jahren sind wir umgezogen."),
             "In Berlin, the museums are free.": ("XX0X, die Museen sind kostenlos.",
                                                  "In Berlin sind die Museen kostenlos."),
             "For example, the file can be opened.": ("XX0X, die Datei kann geöffnet werden.",
                                                      "Zum Beispiel kann die Datei geöffnet werden."),
             "In June, the weather is warm.": ("XX0X, das Wetter warm ist.", "Im Juni, das Wetter warm ist."),
             "Hello, I am Anna.": ("XX0X, ich bin XX1X.", "Hallo, ich bin Anna.")}
    for source, (translation, expected) in cases.items():
        assert prepare(source).restore([translation]) == expected, source


def test_an_idiom_comes_back_in_germans_words():
    """Read, the model wrote idioms word by word ("The game was written from scratch." came back as "Das Spiel wurde
    von der Kratz abgestopft.", "(for instance PNG)" as "(für Instanz PNG)"): each is an item in German's words. Not
    before a word it describes ("in particular subjects": "in bestimmten Fächern", "for instance variables", "free of
    charge delivery")."""
    _restored_as_written({"It was written from scratch.": "It was written von Grund auf.",
                          "The data is processed in real time.": "The data is processed in Echtzeit.",
                          "Some formats (for instance PNG) work.": "Some formats (zum Beispiel PNG) work.",
                          "Use a tool, for instance grep.": "Use a tool, zum Beispiel grep.",
                          "It helps, in particular for beginners.": "It helps, insbesondere for beginners.",
                          "In particular older people like it.": "Insbesondere older people like it.",
                          "It is available free of charge.": "It is available kostenlos.",
                          "The shop is closed until further notice.": "The shop is closed bis auf Weiteres.",
                          "The steps are as follows:": "The steps are wie folgt:",
                          "He works from home most of the time.": "He works from home meistens."},
                         ("Access to instance variables.", "This is for instance variables.",
                          "a college specializing in particular subjects", "free of charge delivery",
                          "nftables in particular are used"))


def test_a_comparison_of_equals_comes_back_as_german_writes_it():
    """Read, the model wrote "as" as "als" or dropped it ("He is not as tall as his father." came back as "Er ist
    nicht so groß als sein Vater.", "twice as old as" as "zweimal alt wie"): two forms stand for the words before and
    after the word compared, which the model writes between them. Not an idiom's word, a noun in a role ("as root"),
    a number's bound ("as many as 100"), nor a headword's simile."""
    _restored_as_written({"She is as old as her brother.": "She is so old wie her brother.",
                          "The house is twice as big as ours.": "The house is doppelt so big wie ours.",
                          "It is three times as long as that one.": "It is dreimal so long wie that one.",
                          "The disk is 10 times as fast as that one.": "The disk is 10-mal so fast wie that one.",
                          "The room is half as large as the hall.": "The room is halb so large wie the hall.",
                          "He runs just as fast as his brother.": "He runs genauso fast wie his brother.",
                          "Keep it as short as possible.": "Keep it so short wie möglich.",
                          "Use as many threads as there are cores.": "Use so viele threads wie there are cores.",
                          "Move it in as few steps as possible.": "Move it in so wenigen steps wie möglich.",
                          "Twice as many as 100 people came.": "Doppelt so viele wie 100 people came.",
                          "Stay as long as possible.": "Stay so lange wie möglich.",
                          "Reply as soon as possible.": "Reply so bald wie möglich.",
                          "The band sounds as loud as ever.": "The band sounds so loud wie immer."},
                         ("Cats as well as dogs are welcome.", "Call me as soon as you arrive.",
                          "You can stay as long as you like.", "As many as 100 people came.",
                          "It costs as much as 50 euros.", "Log in as root as described below.",
                          "The value is used as input as described.", "It was regarded as bad.", "as cold as ice"))


def test_a_comparisons_word_comes_back_without_the_models_ending_or_comma():
    """Between the two forms the model wrote the word compared as before a noun ("so kaltes wie"), a comma after
    "wie" and a hyphen before the noun after a form: German writes the adjective's stem, where it is a word, and
    neither mark ("leise" and "lange" stay)."""
    cases = {"The water is as cold as ice.": ("Das Wasser ist XX0X kaltes XX1X-Eis.",
                                              "Das Wasser ist so kalt wie Eis."),
             "It is not as easy as it looks.": ("Es ist nicht XX0X leichtes XX1X, das sieht aus.",
                                                "Es ist nicht so leicht wie das sieht aus."),
             "Write as little code as possible.": ("XX0X-Code XX1X schreiben.", "So wenig Code wie möglich schreiben."),
             "It is as quiet as before.": ("Es ist XX0X leise XX1X vorher.", "Es ist so leise wie vorher."),
             "It takes twice as long as that.": ("Es dauert XX0X lange XX1X das.",
                                                 "Es dauert doppelt so lange wie das."),
             "It is as simple as that.": ("Es ist XX0X einfachen XX1X das.", "Es ist so einfach wie das."),
             "It is as rare as that.": ("Es ist XX0X selten XX1X das.", "Es ist so selten wie das."),
             "It is as good as new.": ("Es ist XX0X gute XX1X neu.", "Es ist so gut wie neu.")}
    for source, (translation, expected) in cases.items():
        assert prepare(source).restore([translation]) == expected, source


def test_a_share_of_a_whole_comes_back_as_german_writes_it():
    """Read, the model wrote an ordinal or an adjective ("A third of the population" came back as "Ein Dritter der
    Bevölkerung", "Half of the students" as "Halbe der Prüflinge"). German's noun, in the dative after a preposition
    that asks it, with a word bounding or rounding it before; only in a sentence (a headword's is mostly a compound),
    not a half that an article or a word says which of, nor a share of a pronoun."""
    _restored_as_written({"A third of the population lives here.": "Ein Drittel of the population lives here.",
                          "Two thirds of the money was spent.": "Zwei Drittel of the money was spent.",
                          "Half of the students passed.": "Die Hälfte of the students passed.",
                          "In half of the cases, it failed.": "In der Hälfte of the cases, it failed.",
                          "It happens in a fifth of all cases.": "It happens in einem Fünftel of all cases.",
                          "About half of all users agree.": "Etwa die Hälfte of all users agree.",
                          "Nearly two thirds of the votes were cast.": "Fast zwei Drittel of the votes were cast.",
                          "He gave away one tenth of his income.": "He gave away ein Zehntel of his income."},
                         ("half of the brain", "The first half of the year was good.", "We spent half of it.",
                          "A third party", "The other half of the team left."))


def test_a_period_named_from_now_comes_back_as_german_writes_it():
    """Read, the model dropped or garbled it ("It happened last year." came back as "Es passiert zuletzt vor.", "last
    Sunday" as "letzte Sonntag"). German's accusative of time; not after a preposition or an article, whose case it
    would take, nor a subject, a possessive, or a label in capitals inside a sentence, nor what the model writes well
    ("next week")."""
    _restored_as_written({"It happened last year.": "It happened letztes Jahr.",
                          "We moved here last month.": "We moved here letzten Monat.",
                          "I will see you next weekend.": "I will see you nächstes Wochenende.",
                          "We visited them last Sunday.": "We visited them letzten Sonntag.",
                          "He is busy this weekend.": "He is busy dieses Wochenende.",
                          "Next Monday we meet.": "Nächsten Montag we meet.",
                          "I ran this morning.": "I ran heute Morgen.",
                          "We meet every Sunday.": "We meet jeden Sonntag.", "every morning": "jeden Morgen",
                          "Every weekend we go.": "Jedes Wochenende we go."},
                         ("since last year", "the last year", "Last month was busy.", "last year's results",
                          "Click Next week view", "This is the last week of the month.", "She called me last night.",
                          "I will see you next week.", "Sales rose this year.", "every Monday afternoon", "every day"))


def test_a_change_by_a_share_comes_back_with_germans_um():
    """Read, the model wrote "von" or "durch" ("Prices rose by 50 percent." came back as "Die Preiserose von 50
    Prozent."): German's "um"; not a share of a whole ("used by 60% of users")."""
    _restored_as_written({"Prices rose by 50 percent.": "Prices rose um 50 Prozent.",
                          "The value dropped by 15%.": "The value dropped um 15%.",
                          "Exports grew by 5.5 per cent.": "Exports grew um 5,5 Prozent.",
                          "By 10 % it fell.": "Um 10 % it fell."},
                         ("It is used by 60% of users.", "divided by 2", "by 50 percentiles"))


def test_a_century_comes_back_as_german_writes_it():
    """Read, the model changed a century's number ("in the nineteenth century" came back as "im neunten Jahrhundert")
    or its case ("seit der 14. Jahrhundert", "im Früh 19."). A century is its number and a full stop, or its ordinal
    in words, in the case its preposition asks; not an adjective ("19th-century"), nor after a preposition whose case
    the form cannot tell."""
    _restored_as_written({"It was founded in the nineteenth century.": "It was founded im neunzehnten Jahrhundert.",
                          "In the 20th century, cities grew.": "Im 20. Jahrhundert, cities grew.",
                          "a document from the sixteenth century": "a document aus dem sechzehnten Jahrhundert",
                          "a market since the 14th century": "a market seit dem 14. Jahrhundert",
                          "the art of the 16th century": "the art des 16. Jahrhunderts",
                          "lost during the late 18th century": "lost während des späten 18. Jahrhunderts",
                          "He lived in the early 19th century.": "He lived im frühen 19. Jahrhundert.",
                          "The early 19th century was calm.": "Das frühe 19. Jahrhundert was calm.",
                          "printed in the mid-16th century": "printed Mitte des 16. Jahrhunderts",
                          "built in the 5th century BC.": "built im 5. Jahrhundert vor Christus.",
                          "It was built in the 5th century B.C.": "It was built im 5. Jahrhundert vor Christus.",
                          "the 2nd century A.D. and later": "das 2. Jahrhundert nach Christus and later",
                          "The 21st century brings changes.": "Das 21. Jahrhundert brings changes.",
                          "until the twenty-first century": "bis zum einundzwanzigsten Jahrhundert",
                          "The twentieth century": "Das zwanzigste Jahrhundert"},
                         ("the 19th-century novel", "It dates back to the 12th century.", "the 21st century's cities",
                          "the 30th century", "in the century", "Century Gothic"))


def test_a_word_bounding_or_rounding_a_number_comes_back_as_german_writes_it():
    """The model wrote them word by word or broke them ("Up to 5 users can join." came back as "Auf 5 Benutzer können
    betreten.", "at most %d" as "am meisten %d", "about 10 minutes" as "über 10 Minuten", "Less than 1 minute" as
    "Lädt als 1 Minute"); the number beside one is German's too. Not "up to" after a verb "up" goes with, nor "about"
    naming a topic, nor "less than" before a bare value, nor any without a number."""
    _restored_as_written({"Up to 5 users can join.": "Bis zu 5 users can join.",
                          "Enter up to %d characters": "Enter bis zu %d characters",
                          "Up to $1,500 per month": "Bis zu 1.500 $ pro Monat",
                          "At most %d values": "Höchstens %d values",
                          "must be no more than 32 bytes": "must be höchstens 32 bytes",
                          "It takes about 10 minutes.": "It takes etwa 10 minutes.",
                          "About %s remaining": "Etwa %s remaining",
                          "a force of nearly 90,000 men": "a force of fast 90.000 men",
                          "It is about 7.5 km long.": "It is etwa 7,5 km long.",
                          "Less than 1 minute": "Weniger als 1 minute",
                          "We arrive around 5 p.m.": "We arrive gegen 17 Uhr.",
                          "(roughly {n} steps)": "(etwa {n} steps)", "about 2 hours ago": "vor etwa 2 Stunden",
                          "Up To 5 Users, At Most 3 Less Than 2 Days": "Bis zu 5 Users, Höchstens 3 Weniger als 2 Days",
                          # and before a number in words ("About fifty people" came back as "Über fünften Leute")
                          "About fifty people came.": "Etwa fünfzig people came.",
                          "It lasts about two hours.": "It lasts etwa two hours.",
                          "Roughly eight hundred people": "Etwa achthundert people"},
                         ("Add up to 100 items.", "It is up to you.", "Scroll up to line 5", "Round it up to 2 digits",
                          "About 2048", "About 4Pane", "Information about %s", "Learn about 3 new features",
                          "less than 0", "less than a minute", "about us", "Tell me about 3 things.",
                          "Learn about three new features.", "Gmsh is built around four modules."))


def test_a_range_of_numbers_comes_back_with_germans_bis():
    """The model wrote a range's "to" as "an", "auf" or "nach" ("Enter a value from 1 to 100." came back as "... von
    1 an 100 ein."); a quantity that changes goes "von ... auf". Not a score, a ratio, a sum or days of a month."""
    for text, german in {"Enter a value from 1 to 100.": "Enter a value von 1 bis 100.",
                         "It takes 2 to 3 weeks.": "It takes 2 bis 3 weeks.",
                         "Temperature: -5°C to +3°C": "Temperature: -5°C bis +3°C",
                         "From 1 to 10 MB": "Von 1 bis 10 MB",
                         "Reduce the size from 10 MB to 5 MB.": "Reduce the size von 10 MB auf 5 MB.",
                         "Users rose from 1,000 to 2,500.": "Users rose von 1.000 auf 2.500."}.items():
        prepared = prepare(text)
        assert prepared.restore(prepared.segments) == german, text
    for text in ("We won 3 to 1.", "a ratio of 16 to 9", "Add 2 to 3.", "1 to 1 mapping", "from 6 to 7 May",
                 "from %d to %d"):
        prepared = prepare(text)
        assert " to " in prepared.restore(prepared.segments), text  # "from 6 to 7. Mai": a date's


def test_how_often_comes_back_as_german_writes_it():
    """The model wrote "once a week" word by word ("einmal eine Woche", "twice a day" as "zweimal ein Tag") and a
    count of times as "Zeiten" ("Retry 3 times before giving up." came back as "3 Zeiten vor dem Abbruch.")."""
    _restored_as_written({"Backups run once a day.": "Backups run einmal am Tag.",
                          "Twice a month": "Zweimal im Monat", "Retry 3 times per hour": "Retry 3-mal pro Stunde",
                          "%d times a week": "%d-mal pro Woche", "once per month": "einmal pro Monat",
                          "Retry 3 times.": "Retry 3 Mal.",
                          "It failed 1,000 times": "It failed 1.000 Mal", "Three times faster": "Dreimal faster",
                          "(%d times)": "(%d Mal)"},
                         ("once a while", "at times a day is long", "Once upon a time", "10 times the dose",
                          "2 times 3", "{a} times {b}", "four times over", "3 times a session", "once", "The Times"))


def test_an_item_written_in_german_that_the_model_moved_to_the_start_takes_a_capital():
    """ "Updated 2 days ago." came back as "vor 2 Tagen aktualisiert." (German starts a sentence with a capital); an
    item kept as written keeps its letter, and so does a text whose source starts with one in small letters."""
    for text, translation, german in (("Updated 2 days ago.", "XX0X aktualisiert.", "Vor 2 Tagen aktualisiert."),
                                      ("Configure e.g. an Editor", "XX0X einen Editor einrichten",
                                       "Z.B. einen Editor einrichten"),
                                      ("I live in Berlin.", "XX0X wohne ich.", "In Berlin wohne ich."),
                                      ("Run npm.install now", "XX0X jetzt ausführen", "npm.install jetzt ausführen"),
                                      ("updated 2 days ago", "XX0X aktualisiert", "vor 2 Tagen aktualisiert")):
        assert prepare(text).restore([translation]) == german, text


def test_a_letters_salutation_and_closing_come_back_as_german_writes_them():
    """The model broke an e-mail's opening and closing and dropped names beside them ("Hi John," came back as "Hins,",
    "Dear colleagues," as "Kleine Kollegen,", "Best regards, John" as "Beste Grüße", "Sincerely," as "Seitrmal,") and
    translated the signature after them ("Tom Baker" as "Tom-Befehl"). A closing before a line break or at the text's
    end takes no comma."""
    _restored_as_written({"Dear John,": "Hallo John,", "Hi Anna and Tom, welcome.": "Hallo Anna und Tom, welcome.",
                          "Hi Kevin White, welcome.": "Hallo Kevin White, welcome.",  # a given name and a surname
                          "Dear Valued Customer, thanks.": "Dear Valued Customer, thanks.",  # two words are none
                          "Dear Sir or Madam,": "Sehr geehrte Damen und Herren,", "Hi everyone!": "Hallo zusammen!",
                          "Dear colleagues,": "Liebe Kolleginnen und Kollegen,",
                          "Thanks.\nBest regards,\nTom Baker": "Danke.\nViele Grüße\nTom Baker",  # a signature
                          "Kind regards, Mark": "Freundliche Grüße, Mark",  # a name after the comma
                          # nor at the text's end ("Kind regards," came back as "Freundliche Grüße,")
                          "Thanks for your help.\n\nKind regards,": "Thanks for your help.\n\nFreundliche Grüße",
                          "Sincerely, Peter": "Mit freundlichen Grüßen, Peter",
                          "Dear Dr. Smith,": "Guten Tag Dr. Smith,", "Dear customers,": "Liebe Kundinnen und Kunden,",
                          "I look forward to hearing from you.": "Ich freue mich darauf, von Ihnen zu hören.",
                          # set phrases the model broke ("See you soon!": "Sie haben bald!")
                          "See you soon!": "Bis bald!", "You're welcome.": "Gern geschehen.",
                          # a chat's greetings in small letters ("hello" came back as "Hölle", "hi" as "mieten")
                          "hello": "Hallo", "hi, all good?": "Hallo, all good?", "bye!": "Tschüss!",
                          "Hello {name}, hi.": "Hallo {name}, hi.", "Dear %s,": "Hallo %s,",  # a template's name
                          "Hi %1, hi.": "Hallo %1, hi.", "Hello %{name}, hi.": "Hallo %{name}, hi.",
                          "Hi $name, hi.": "Hallo $name, hi.", "Hello :name, hi.": "Hallo :name, hi.",
                          "<h1>Hello, {name}!</h1>": "<h1>Hallo, {name}!</h1>",  # an element's start
                          "Hi {{ .Name }}, hi.": "Hallo {{ .Name }}, hi.", "Hello #{name}, hi.": "Hallo #{name}, hi.",
                          "Hello \\(name), hi.": "Hallo \\(name), hi.", "Hi <%= user.name %>, hi.":
                          "Hallo <%= user.name %>, hi.",
                          "<li>Hello</li>": "<li>Hallo</li>", "<b>Thanks</b> for that": "<b>Thanks</b> for that",
                          "Thanks. Get well soon!": "Danke. Gute Besserung!",
                          # an e-mail's set sentences ("Feel free to contact me.": "Freier Speicherplatz, ...")
                          "Hi Anna,\nI hope you are doing well. Feel free to contact me.\nKind regards,\nTom":
                          "Hallo Anna,\nIch hoffe, es geht Ihnen gut. Sie können mich gerne kontaktieren.\n"
                          "Freundliche Grüße\nTom",
                          # closings that are one only before the name's line ("Cheers,\nTom": "Cheere,")
                          "Hope you are well.\nCheers,\nTom": "Ich hoffe, es geht Ihnen gut.\nViele Grüße\nTom",
                          "All the best!": "Alles Gute!", "Best,\nJoe Miller": "Beste Grüße\nJoe Miller",
                          # a closing alone on its line, without its comma, and a line's closing on the last line
                          "Best regards\nAnna Weber": "Viele Grüße\nAnna Weber", "Hey team!\nGo.\nCheers":
                          "Hallo Team!\nGo.\nViele Grüße",
                          # a quotation's start ('"Hello," she said.' came back as '„Hello“, sagte sie.'), its marks
                          # German's each
                          '"Hello," she said.': "„Hallo“, she said.", 'He left. "Thanks!" she said.':
                          "He left. „Danke!“ she said."},
                         ("Hello World!", "Dear reader, welcome.",
                          "Best regards to your mother.", "Dear User,",  # no name
                          "great", "say hello to her",  # a headword in small letters, a greeting inside a sentence
                          "Take care, the floor is wet.", "Good luck with that.", "Cheers!", "Best, worst and average",
                          "Let me know if you have any questions about it.",  # a set sentence that goes on is none
                          "The list:\nThanks\nSorry", "Cheers\nto you",  # a list's words, a toast
                          'He said "thanks" and left.'))  # a quotation inside a sentence


def test_scripts_styles_code_and_translate_no_elements_are_never_translated():
    """Their content is no text to translate (a translated script breaks the page, an Android resource marked
    translatable="false" is a key, not words): each element is protected whole
    (alone, or in a run with the items it touches), nested elements of the same name and a "<script>" inside a
    script's own text included."""
    untouched = ['<script>var s = "<script>Hello.</script"; if (a < b) go("Good morning.");</script>',
                 "<style>p > a { content: 'Hello.'; }</style>", "<code>print(<code>Hello.</code>)</code>",
                 '<div class="intro notranslate"><div>Acme Corp.</div> Hello.</div>', "<b translate=no>Good morning.</b>",
                 '<img translate="no" alt="Hello."/>', '<string name="key" translatable="false">Hello.</string>',
                 '<trans-unit id="7" its:translate="no"><source>Good morning.</source></trans-unit>']
    text = ("<p>Hello world.</p>" + " Good day. ".join(untouched)
            + " <i data-translate=no class=notranslated translatable=true>Read on.</i>")
    for html in (True, False):
        prepared = prepare(text, preserve_placeholders=not html, html=html)
        assert [element for item in prepared.protected for element in untouched if element in item] == untouched
        assert not any("Hello." in segment or "morning" in segment for segment in prepared.segments)
        assert "Read on." in " ".join(prepared.segments)  # data-translate and "notranslated" are other attributes
        restored = prepared.restore([s.upper() for s in prepared.segments])
        assert all(element in restored for element in untouched) and "READ ON." in restored
    unclosed = prepare("<code>Hello world.", html=True)
    assert unclosed.segments == ["XX0XHello world."]  # never closed: only its tag is protected


def test_comments_are_protected_as_the_first_markup_that_begins():
    """A comment runs from "<!--" to the first "-->" after it (a "<!--" inside it is text, as in HTML), a CDATA
    section from "<![CDATA[" to the first "]]>" ("<![CDATA[ Open ]]>" came back as "<![CDATA[Ordner ]>"); one that
    never closes is neither; a code span that holds a "<!--" is taken whole, and what follows it is read afresh.
    Outside a comment, a "<!--" or "-->" standing alone is kept as an operator is (an arrow: "A --> B")."""
    cases = {
        "a <!-- x --> b <!-- y --> c": ["<!-- x -->", "<!-- y -->"],
        "<!-- <!-- nested --> -->": ["<!-- <!-- nested -->", "-->"],
        "<!-->-->": ["<!-->-->"],
        "open <!-- and <!-- never closed %s": ["%s", "<!--", "<!--"],
        "`code <!--` then --> and <!-- c -->": ["<!-- c -->", "-->", "`code <!--`"],
        "<!-- `a --> `b` c": ["<!-- `a -->", "`b`"],
        "%s<!-- x -->{n}": ["%s", "<!-- x -->", "{n}"],
        "a <![CDATA[ x < y ]]> b": ["<![CDATA[ x < y ]]>"],
        "<![CDATA[ <!-- ]]> -->": ["<![CDATA[ <!-- ]]>", "-->"],
        "<!-- <![CDATA[ --> ]]>": ["<!-- <![CDATA[ -->"],
        "open <![CDATA[ never closed %s": ["%s"],
    }
    for text, items in cases.items():
        assert protected_items(text) == sorted(items), text


# What ITEM_HINT takes for prose: a text of these characters only holds an item where one of its other hints is
PROSE = string.ascii_letters + " ,.?!'\""


def _prose_alternatives() -> list[str]:
    """The item patterns (and NUMBER) that can match a text of PROSE alone, as far as hypothesis can generate one
    (the others need a character outside it, which is a hint by itself)."""
    possible = []
    for alternative in ITEMS + (NUMBER,):
        try:
            st.from_regex(re.compile(alternative, re.DOTALL), alphabet=PROSE).validate()
        except InvalidArgument:
            continue
        possible.append(alternative)
    return possible


@settings(max_examples=200, deadline=None)
@given(st.characters().filter(lambda character: character not in PROSE))
def test_every_character_outside_prose_is_an_item_hint(character):
    assert ITEM_HINT.fullmatch(character)


@pytest.mark.parametrize("alternative", _prose_alternatives(), ids=lambda alternative: alternative[:40])
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_an_item_in_prose_holds_a_hint_and_is_found(alternative, data):
    """protected_spans skips a search where ITEM_HINT finds nothing: an item of only PROSE characters (a CamelCase
    name, file.txt, a.b.c, "!!", "??? note", "import 'x'") must hold one of its hints from its start on, or it would
    be lost."""
    text = data.draw(st.from_regex(re.compile(alternative, re.DOTALL), alphabet=PROSE))
    for item in re.finditer(alternative, text, re.DOTALL):
        assert ITEM_HINT.search(text, item.start()), (text, item)
    assert protected_spans(text, EVERYTHING_AND_NUMBERS) == [m.span() for m in EVERYTHING_AND_NUMBERS.finditer(text)]


def test_a_run_of_single_capitals_is_a_list_of_letters_kept_as_written():
    """LinuxCNC's G-code reference lists axes and parameters: "I J K or R P" came back as "Ich J K oder R", "P L" as
    "PL". Two capitals alone or more between spaces are an item (found, though all are prose characters: ITEM_HINT);
    one is a word ("Plan B", "I went"), and so are "I" and "A" together."""
    assert protected_items("Use I J K or R P, and X Y Z A B C for all motions.") == ["I J K", "R P", "X Y Z A B C"]
    assert protected_items("Plan B is fine, I went home, use X, Y and Z. I A I") == []  # "I" and "A" are words


def test_the_local_hosts_name_is_kept_as_written():
    """Read, the model lost "localhost" or made it German ("The server runs on localhost." came back as "... auf dem
    lokalenhost.", "Connect to localhost on port 22." as "Mit dem Port 22 verbinden."): the name, with a port or not
    and in any case, is an item, also in a sentence of prose characters alone; a longer word holding it is not."""
    assert protected_items("Open localhost:8080 or Localhost, not mylocalhost or localhost-x.") == [
        "Localhost", "localhost:8080"]
    assert prepare("The server runs on localhost.").segments == ["The server runs on XX0X."]


def test_numbered_tags_of_rich_text_are_tags():
    """i18next and react-intl number a message's elements ("Click <0>here</0>."): read as numbers between marks, the
    model kept the words inside ("Klicken Sie auf <0>here</0>"); they are tags, taken out around their words."""
    prepared = prepare("Click <0>here</0> to see <1>{{count}}</1> new messages.")
    assert prepared.segments == ["Click XX0XhereXX1X to see XX2X new messages."]
    assert prepared.protected == ["<0>", "</0>", "<1>{{count}}</1>"]
    assert prepared.restore(["Klicken Sie XX0XhierXX1X, um XX2X neue Nachrichten zu sehen."]) == (
        "Klicken Sie <0>hier</0>, um <1>{{count}}</1> neue Nachrichten zu sehen.")


def test_a_key_of_one_mark_after_its_verb_is_kept_as_written():
    """Read, the model lost "?" in "Press ? to see all shortcuts." and wrote "Press A to attack." as "Drücken Sie eine
    eine Angriffe.": a mark, "A" or "I" after "press" or "hit" is an item; an article and another capital are none."""
    assert protected_items("Press ? to see them, press / to search, hit A or press I to go on, or press +.") == [
        "+", "/", "?", "A", "I"]
    assert protected_items("Press a key to continue, or press B to break it.") == []
    assert prepare("Press ? to see all shortcuts.").segments == ["Press XX0X to see all shortcuts."]


def test_a_wiki_link_to_a_page_by_its_name_is_kept_as_written():
    """Read, the model translated a wiki page's name and lost a bracket ("[[Main Page]] was edited." came back as
    "[[Main Seite] wurde bearbeitet."): a link to a page by its name is an item; one with its own text after "|" and a
    shell's test are read, and so is a Markdown link's text in brackets."""
    assert protected_items("[[Main Page]] and [[Help:Contents]] were edited.") == ["[[Help:Contents]]", "[[Main Page]]"]
    assert protected_items("Please [[Manual|read the manual]] or run [[ -f file ]].") == ["-f"]  # an option
    # a Markdown link whose text is a footnote's reference: its target stays the link's, not words the model reads
    assert prepare("See [[^1]](#notes).", take_out_tags=True).protected == ["[", "[^1]", "](#notes)"]


def test_markup_without_spaces_is_words_between_tags_not_one_long_run():
    """Minified HTML has no space in 50 characters; kept as one run, as a hash or blob is, its words were never
    translated. Tags end a run as a space does; a run between them is still kept, and so is one without markup."""
    table = prepare("<table><tr><td>Open</td><td>Save</td></tr></table>", html=True)
    assert table.segments == ["Open", "Save"] and "Open" not in table.protected
    menu = prepare("<ul><li>Home</li><li>About us</li><li>Contact</li><li>Privacy</li></ul>")
    assert [word for word in ("Home", "About us", "Contact", "Privacy") if word in "".join(menu.segments)] == [
        "Home", "About us", "Contact", "Privacy"]
    for text in ("<b>" + "a" * 60 + "</b>", "<!-- x -->" + "a" * 60, "a" * 32000):
        prepared = prepare(text, html=True)
        assert not prepared.segments and prepared.restore([]) == text, text


def test_a_quoted_attribute_value_may_hold_a_greater_than_sign():
    """'<a title="Settings > Privacy">' was cut at its ">", and the rest of the tag reached the model as words (it
    came back as '<a title="Settings >Privacy">'). A quoted value ends the tag only after its closing quote, in any
    tag the pipeline reads (inline, block-level, untranslatable); a quote that never closes is a character of the tag."""
    for text, html, tag in (('<a title="Settings > Privacy">Open the file</a> now.', False, '<a title="Settings > Privacy">'),
                            ("<img alt='a > b'> Open the file.", True, "<img alt='a > b'>"),
                            ('<p title="a > b">Open it.</p><p>Save it.</p>', True, '<p title="a > b">'),
                            ("<b class=it's>Open</b> it.", False, "<b class=it's>")):
        prepared = prepare(text, html=html)
        own = prepared.segments[:prepared.own_segments]  # a title's value is a text of its own
        assert tag in prepared.protected and not any(">" in segment for segment in own), text
        assert prepared.restore(prepared.segments) == text
    assert prepare('<p title="a > b">Open it.</p><p>Save it.</p>', html=True).own_segments == 2
    code = prepare('<code title="x > y">a = b</code> is code.', html=True)  # untranslatable, attribute and all
    assert code.segments == ["XX0X is code."] and code.protected == ['<code title="x > y">a = b</code>']


def test_declarations_and_processing_instructions_are_markup():
    """'<?xml version="1.0" encoding="UTF-8"?>' reached the model as words and came back as '<?xml Version="1.0"
    Kodierung="UTF-8"?>>'; "<!DOCTYPE html>" was a sentence of its own."""
    for text in ('<?xml version="1.0" encoding="UTF-8"?><p>Open the file.</p>', "<!DOCTYPE html><p>Open the file.</p>",
                 "<!doctype html>\n<p>Open the file.</p>"):
        for html in (False, True):
            prepared = prepare(text, html=html)
            assert prepared.segments == ["Open the file."] or prepared.segments == ["XX0XOpen the file.XX1X"], text
            assert prepared.protected[0].startswith(text[:text.index(">") + 1])  # with the tag beside it, unless apart
            assert prepared.restore(prepared.segments) == text
    # and a document type with declarations inside it (KDE's manuals', an e-book's page defining "&nbsp;"): read as
    # words, '<!DOCTYPE book PUBLIC "..." [' came back as '<!DOCTYP-Buch ÖFFENTLICHE "..." ['
    for doctype in ('<!DOCTYPE book PUBLIC "-//KDE//DTD DocBook XML V4.5//EN" "kdedbx45.dtd" [\n  <!ENTITY % English '
                    '"INCLUDE">\n  <!-- a [note] -->\n]>', '<!DOCTYPE html [<!ENTITY nbsp "&#160;">]>'):
        prepared = prepare(f"{doctype}\n<p>Open the file.</p>", html=True)
        assert prepared.protected[0] == doctype and prepared.segments == ["Open the file."]


def test_a_start_tag_that_never_closes_is_markup_in_html():
    """KOMA-Script's pages: '<meta name="keywords" content="KOMA-Script, scrtime' runs into the next line's tag; read as
    words it came back as '<meta-Name="keywords" Inhalt="KOMA-Skript, ...'. In plain text a "<" before words is text."""
    text = '<meta name="keywords" content="KOMA-Script, scrtime\n<meta name="DC.Title" />\n<title>The time</title>'
    prepared = prepare(text, html=True)
    assert prepared.segments == ["The time"] and prepared.protected[0].startswith('<meta name="keywords"')
    assert prepared.restore(["Die Zeit"]) == text.replace("The time", "Die Zeit")
    assert prepare("if a <b and c <d then", html=True).segments == ["if a <b and c <d then"]
    assert prepare('Set <x y="1 and go <b>on</b>.').protected == ["1", "<b>", "</b>"]


def test_a_tag_of_no_elements_content_at_a_sentences_edge_stays_there():
    """A form's field after its label's words went where the model put it, inside the label ('<label>Datei<input
    type="text"> öffnen</label>'); in HTML a void element's tag at a sentence's edge stays out of it, as an emoji
    does. Inside the sentence it stays a token, and an element's tags are taken out and put back as before."""
    for text, take_out, segment, lead, trail in (
            ('<label>Open the file</label><input type="text">', True, "Open the file", "", '<input type="text">'),
            ('<img src="i.png"> Open the file<br/>', False, "Open the file", '<img src="i.png"> ', "<br/>"),
            ("Open <img src=x> the file", False, "Open XX0X the file", "", "")):
        prepared = prepare(text, html=True, take_out_tags=take_out)
        assert prepared.segments == [segment], text
        assert [prepared.unmask(glue) for glue in prepared.glue] == [lead, trail], text
    identity = prepare('<img src="i.png"> Open <b>the</b> file <input type=text>', html=True)
    assert identity.restore(identity.segments) == '<img src="i.png"> Open <b>the</b> file <input type=text>'


def test_a_subtitle_cues_voice_span_stays_at_the_start_of_its_words():
    """WebVTT's "<v Roger>Thank you." reached the model as a token glued to the first word, which cost it words (398
    held-out sentences after "<v Roger>": chrF 51.34 against 58.07 alone). A cue span that opens at a sentence's
    start (or closes at its end) with no partner in the text stays at its edge; one closed in the text, and a lone
    "<p>" (a catalog line's, which the model learnt as a token), are read as before."""
    for text, segments, lead in (("<v Roger>Where is the station?", ["Where is the station?"], "<v Roger>"),
                                 ("<v.loud Roger> Where is it?\n<lang de>Danke.</lang>",
                                  ["Where is it?", "XX0XDanke.XX1X"], "<v.loud Roger> "),
                                 ("<c.yellow>Where is the station?</c>", ["XX0XWhere is the station?XX1X"], ""),
                                 ("<p>Where is the station?", ["XX0XWhere is the station?"], "")):
        prepared = prepare(text)
        assert prepared.segments == segments, text
        assert prepared.unmask(prepared.glue[0]) == lead, text
        assert prepared.restore(prepared.segments) == text
    said = prepare("Where is it?</v>")
    assert said.segments == ["Where is it?"] and said.unmask(said.glue[-1]) == "</v>"


def test_sibling_elements_with_nothing_between_are_texts_of_their_own():
    """A menu's links, a form's buttons, a select's options came back merged and nested ('<button><button>Speichern
    </button></button>', "Cancel" lost): read as one sentence ("SaveCancel"). Where an element ends and another of
    its name starts right after it, glued to words on both sides, they separate sentences as block-level tags do;
    elements of other names (a footnote after a link), with a space beside them, void or self-closing (a label's
    field, "<nl/>") do not. Links, buttons and labels do with only whitespace (and fields) between them, whatever
    their names ("<button>Sign in</button> <a>Forgot your password?</a>" came back as "<button>In <a>Fortget-Passwort
    </a> signieren</button>")."""
    for text, segments in (('<nav><a href="/">Home</a><a href="/about">About us</a></nav>', ["Home", "About us"]),
                           ('<a href="/">Home</a>\n  <a href="/about">About us</a>', ["Home", "About us"]),
                           ('<button>Log in</button> <a href="/f">Forgot your password?</a>',
                            ["Log in", "Forgot your password?"]),
                           ('<label for="n">Your name</label> <input id="n"> <button>Send</button>',
                            ["Your name", "Send"]),  # a field between them
                           ('<p>Read <a href="/1">this</a> and <a href="/2">that</a>.</p>', ["Read this and that."]),
                           ("<button>Save</button><button>Cancel</button>", ["Save", "Cancel"]),
                           ('<select><option value="1">First</option><option value="2">Second</option></select>',
                            ["First", "Second"]),
                           ('<figure><img src="x.png"><figcaption>A picture</figcaption></figure>', ["A picture"]),
                           ('<p>See <a href="/x">our site</a> or <b>call</b> us.</p>', ["See our site or call us."]),
                           ("<b>Saving <i>%1</i> failed:</b><nl/>%2", ["Saving XX0X failed:XX1XXX2X"]),
                           ('<p>Read the <a href="/d">manual</a><sup>1</sup> first.</p>',
                            ["Read the manualXX0X first."]),
                           ("<div><span>Open</span><span> the file</span></div>", ["Open the file"]),
                           ("<p><b>Save</b><b>now</b></p><p>Quit</p>", ["Save", "now", "Quit"])):
        prepared = prepare(text, html=True, take_out_tags=True)
        assert prepared.segments == segments, text
        tokens = prepare(text, html=True)  # without alignments: the tags stay tokens, split the same way
        assert [PLACEHOLDER_PATTERN.sub("", segment) for segment in tokens.segments] == [
            PLACEHOLDER_PATTERN.sub("", segment) for segment in segments], text
        assert tokens.restore(tokens.segments) == text
    assert prepare("<div><span>Open</span> <span>the file</span></div>", html=True, take_out_tags=True).segments == [
        "Open the file"]  # styling: spans are no controls
    plain = prepare("<button>Save</button><button>Cancel</button>")  # in plain text too: evidently markup
    assert [PLACEHOLDER_PATTERN.sub("", segment) for segment in plain.segments] == ["Save", "Cancel"]
    assert plain.restore(plain.segments) == "<button>Save</button><button>Cancel</button>"


def test_in_plain_text_block_elements_that_open_and_close_separate_sentences():
    """Read as one sentence, "<h1>Settings</h1><p>Change your password.</p>" came back as "<p><h1>Einstellungen</h1>
    ändern.</p>" (words lost, the elements nested). In plain text a block-level tag separates sentences where it is
    evidently markup: its element opens and closes in the text, or it is a <br> or <hr>; a lone "<address>" or
    "<table>" is a usage line's placeholder, and line breaks stay breaks."""
    for text, segments in (("<h1>Settings</h1><p>Change your password.</p>", ["Settings", "Change your password."]),
                           ("File does not exist:<br>%1", ["File does not exist:"]),
                           ("<dt>cost:</dt><dd>%1 of the snapshot</dd>", ["cost:", "XX0X of the snapshot"]),
                           ("Usage: %s [<option>...] <table> <address>", ["Usage: XX0X [XX1X...] XX2X XX3X"]),
                           ("Paragraphs (<p/>) and lists", ["Paragraphs (XX0X) and lists"]),
                           ("<p>Save the file.\nOpen the folder.</p>", ["Save the file.", "Open the folder."])):
        prepared = prepare(text, take_out_tags=True)
        assert prepared.segments == segments, text
        assert prepared.restore(prepared.segments) == text


def test_a_command_line_where_one_is_expected_is_kept_as_written():
    """Read as words, the model broke a command ("Install it with: pip install requests" came back as "...: Rohr
    installieren", "docker compose up -d" as "Docker-Kompose -d"): at a line's start or after a colon, a tool's name,
    one of its subcommands and its arguments to the line's end are one item, as code; a sentence's last dot stays out.
    A tool's name before words of a sentence is no command."""
    for text, (segments, protected) in {
            "Install it with: pip install requests": (["Install it with: XX0X"], ["pip install requests"]),
            "Then run:\nsudo docker compose up -d\nDone.": (["Then run:", "Done."],  # a line of its own: glue
                                                           ["sudo docker compose up -d"]),
            "apt-get install perl.": ([], ["apt-get install perl"])}.items():  # nothing to translate
        prepared = prepare(text)
        assert (prepared.segments, prepared.protected) == (segments, protected), text
        assert prepared.restore(prepared.segments) == text
    for text in ("git svn clone failed", "go down one line", "make up the bed", "npm is a package manager.",
                 "Run npm install to update it. Then restart."):
        assert not any(" " in item for item in prepare(text).protected), text
    # any command after a shell's prompt, with the lines its backslashes continue ("$ gcloud alpha compute ..." came
    # back as "$ gcloud Alpha-Instanzen ..."); not a catalog's one-line key or format ("$ last page"), nor money
    manual = "To add it, run:\n\n  $ gcloud alpha compute instances add \\\n      my-instance --zone=ZONE\n\nDone."
    assert prepare(manual).segments == ["To add it, run:", "Done."]
    assert prepare(manual).protected == ["  $ gcloud alpha compute instances add \\\n      my-instance --zone=ZONE"]
    for text in ("$ last page", "$ matches the end", "It costs\n$ 5 a month."):
        assert not any("$" in item for item in prepare(text).protected), text


def test_a_command_line_between_quotation_marks_is_kept_as_written():
    """Read, the model translated a quoted command's words ("git rebase --continue" came back as "git Rebase
    --continue", 'git restore --staged :/' as "git wiederherstellen --staged :/": 41 of the 71 in 1,837 wrapped catalog
    messages; German keeps 118 of 131 in the installed catalogs) and lost its marks around the token: a program's name,
    at most two subcommands, an option and its arguments between quotation marks are one item, its marks included. Not
    marks inside words, nor a sentence's words quoted."""
    for text, protected in {
            'Fix it and run "git rebase --continue" again.': ['"git rebase --continue"'],
            "Try 'apt --fix-broken install' to correct these.": ["'apt --fix-broken install'"],
            "Run 'git branch -D %s' if you are sure.": ["'git branch -D %s'"],
            "Use `popd -1' here, or \u201egit notes merge --abort\u201c.": [
                "`popd -1'", "\u201egit notes merge --abort\u201c"],
            "Don't use -h, it's wrong.": ["-h"],
            'He said "use the -f flag" loudly.': ['"', "-f", '"']}.items():
        prepared = prepare(text)
        assert prepared.protected == protected, text
        assert prepared.restore(prepared.segments) == text


def test_a_usage_lines_command_is_kept_as_written_and_its_syntax_read():
    """Read, a usage line's command was translated or lost ("pushd [-n] [+N | -N | dir]" came back as "primiert [-n]
    ...", "suspend [-f]" as "[-f]", "scalar clone [<options>]" as "Skalarer Klon ..."): its name and subcommands in
    small letters before nothing but options, brackets and metavariables are an item; what the brackets hold is read,
    as the catalogs' German translates it ("[-f filename]": "[-f Dateiname]")."""
    for text, name in {"pushd [-n] [+N | -N | dir]": "pushd", "Usage: id [-a]\n": "id",
                       "suspend [-f]": "suspend", "  or:  fuser [-fIMuvw] [-a|-s] NAME...": "fuser",
                       "scalar clone [<options>] [--] <repo> [<dir>]": "scalar clone",
                       "enable [-a] [-dnps] [-f filename] [name ...]": "enable",
                       "Usage: sg group [[-c] command]\n": "sg group"}.items():
        prepared = prepare(text)
        assert prepared.protected[0] == name, text
        assert prepared.restore(prepared.segments) == text
    assert "filename" in prepare("enable [-a] [-dnps] [-f filename] [name ...]").segments[0]
    # a line of a sentence's words, of prose before a bracket (a value list, printf's, a changelog's credit, an
    # issue's or a commit's number), or with words after its syntax, keeps its words
    for text in ("use notes from <notes-ref>", "    expanded output [on, off, auto]", "warning [%s]",
                 "  some compiler warnings  [Steven M. Schweda]", "  fixed a crash [f05d1772c4]",
                 "  width [submitted by treectrl]", "remove [packages] from the system", "see [1]",
                 "print the help [-h]", "Remove [-f] files"):
        assert text.split()[0] in " ".join(prepare(text).segments), text
    """Read, a statement outside a code block had its keywords and names translated and a bracket lost ("const crypto =
    require('node:crypto');" came back as "konstrukt-Krypto = erforderlich;"): a line that ends in ";" or "{" with a
    call, a block's keyword, an assignment or a comparison, or one after ">>> ", is an item; its comments are read.
    A sentence that ends in ";" (five words in a row outside string literals, a plural's "(s)") stays read."""
    text = ("// Print the value in hex:\nconsole.log(buf.readUInt32LE(0).toString(16));\nif (status != ok) {\n"
            "  return status;\n}\n>>> sorted(cookbook.recipes)")
    prepared = prepare(text)
    assert prepared.segments == ["XX0X Print the value in hex:"]
    assert prepared.protected == ["//", "console.log(buf.readUInt32LE(0).toString(16));", "if (status != ok) {",
                                      "  return status;", ">>> sorted(cookbook.recipes)"]
    assert prepared.restore(prepared.segments) == text
    for prose in ("   and strlen() was a way to measure the width of a string;", "-r, %s run command(s) at startup;",
                  "It failed; please try again.", "Thanks for everything;",
                  "good properties from Net::Daemon, NetServer::Generic, and Net::FTPServer;"):  # (a name's path)
        assert prepare(prose).segments, prose
    for code in ("use Net::Daemon;", "std::cout << total;", "using namespace std::chrono;",
                 "class MyObject : public node::ObjectWrap {"):
        assert prepare(code).segments == [], code


def test_a_menu_path_or_a_quoted_label_is_an_item_whose_labels_are_translated_each_alone():
    """Read as words, the model repeated a menu path's labels without end ("in Settings > General > Language" came
    back as "in Einstellungen > General > Allgemein > Allgemein > Allgemein >") or lost them ("Open File > Save As." as
    "Datei öffnen unter."), and wrote a quoted label as a word of the sentence ('Click "Save"': '"Speicher"'): the path
    or the quotation is one item, each label a text of its own; an instruction's verb stays the sentence's, and what
    is no path (a comparison of numbers, words in small letters) or no label (a search's words, a sentence) stays as it
    was."""
    cases = {"You can change the language in Settings > General > Language.": (
                 ["You can change the language in XX0X.", "Settings", "General", "Language"],
                 "YOU CAN CHANGE THE LANGUAGE IN SETTINGS > GENERAL > LANGUAGE."),
             "Open File → Save As... and Privacy & Security > Clear Data.": (
                 ["Open XX0X and XX1X.", "File", "Save As...", "Privacy & Security", "Clear Data"],
                 "OPEN FILE → SAVE AS... AND PRIVACY & SECURITY > CLEAR DATA."),
             # LibreOffice's help separates labels by a dash ("Choose Slide Show - Slide Show" came back as
             # "Dia-Anzeige - Anzeige")
             "Choose Tools - Options - Security.": (
                 ["Choose XX0X.", "Tools", "Options", "Security"], "CHOOSE TOOLS - OPTIONS - SECURITY.")}
    for text, (segments, translated) in cases.items():
        prepared = prepare(text)
        assert prepared.segments == segments, text
        assert prepared.restore([segment.upper() for segment in segments]) == translated, text
    # a path inside an element, or of elements (DocBook's: GIMP's help lost labels, '<span class="guimenu">→</span>'),
    # is one item with their tags; each label's words alone, an element's in any case after a capital
    for text, labels, german in (
            ('Choose <span class="menuitem">Slide Show - Slide Show</span>.', ["Slide Show"] * 2,
             'Choose <span class="menuitem">Dia - Dia</span>.'),
            ('Use <span class="guimenu">Edit</span> → <span class="guisubmenu">Paste as </span> → '
             '<span class="guimenuitem">New Brush…</span> now.', ["Edit", "Paste as", "New Brush…"],
             'Use <span class="guimenu">Dia</span> → <span class="guisubmenu">Dia </span> → '
             '<span class="guimenuitem">Dia</span> now.')):
        prepared = prepare(text, html=True, take_out_tags=True)
        assert prepared.segments == [text.split("<")[0] + "XX0X" + text.split(">")[-1], *labels], text
        assert prepared.restore(prepared.segments) == text
        assert prepared.restore([prepared.segments[0], *("Dia" for _ in labels)]) == german
    # an arrow written as a reference (KiCad's "<strong>View</strong> &#8594; <strong>Grid Properties…</strong>" came
    # back as "<strong>&#8594;</strong> <strong>Gittereigenschaften werden verwendet …</strong>"), and "&gt;"
    for text, labels in (("Use <strong>View</strong> &#8594; <strong>Grid Properties&#8230;</strong>.",
                          ["View", "Grid Properties…"]), ("Choose Insert &gt; Section &gt; Indents.",
                                                          ["Insert", "Section", "Indents"])):
        prepared = prepare(text, html=True, take_out_tags=True)
        assert prepared.segments[1:] == labels and len(prepared.protected) == 1, text
        assert prepared.restore(prepared.segments) == text
    # but not a tag whose partner lies outside the path, nor an element's words from a small letter
    assert prepare("Open <b>File > Save</b> now.", html=True, take_out_tags=True).segments == [
        "Open XX0X now.", "File", "Save"]
    assert not prepare("If x > 5 then <b>stop</b> - <i>now</i>", html=True, take_out_tags=True).shown
    # so is a quoted label after the verb that works it or before the control's name (the model wrote '"Speicher"')
    for text, (segments, translated) in {
            'Click "Save", then the “Cancel” button.': (
                ["Click XX0X, then the XX1X button.", "Save", "Cancel"], 'CLICK "SAVE", THEN THE »CANCEL« BUTTON.'),
            "Select 'Edit > Copy'.": (["Select XX0X.", "Edit", "Copy"], "SELECT 'EDIT > COPY'."),
            'By clicking "Accept", you agree.': (  # any form of the verb ('"Aktktuell"')
                ["By clicking XX0X, you agree.", "Accept"], 'BY CLICKING "ACCEPT", YOU AGREE.'),
            'Click "Save" on Friday.': (["Click XX0X.", "Save"], 'CLICK "SAVE" am Freitag.'),  # and a form
            # or words each from a capital after "to", "in", "from", "as" ('... to "Untitled Document"' lost a word)
            'Save changes to "Untitled Document"?': (["Save changes to XX0X?", "Untitled Document"],
                                                     'SAVE CHANGES TO "UNTITLED DOCUMENT"?')}.items():
        prepared = prepare(text)
        assert prepared.segments == segments, text
        assert prepared.restore([segment.upper() for segment in segments]) == translated, text
    # "klicken" takes "auf" before a label, which the model left out reading the label as a token
    prepared = prepare('Click "Cancel" to stop.')
    for german, restored in (("Klicken Sie XX0X, um zu stoppen.", 'Klicken Sie auf "Abbrechen", um zu stoppen.'),
                             ("Um zu stoppen, XX0X klicken.", 'Um zu stoppen, auf "Abbrechen" klicken.'),
                             ("Klicke auf XX0X.", 'Klicke auf "Abbrechen".'), ("Wähle XX0X.", 'Wähle "Abbrechen".')):
        assert prepared.restore([german, "Abbrechen"]) == restored
    for text in ("If x > 5 then stop.", "if a > b and c > d", "step -> next", "If A > B, stop.", "XX0X > XX1X",
                 'No results for "translator".', 'Click "Save." and "Done!" buttons', "Click 'em all.",
                 'He went to "the Shop" and in "New York city".',  # not each word from a capital
                 "Run the 'find' dialog, press 'space'.", "Tools > Import IMAP settings", "MTR > Under",
                 "The range 1 - 10, FIRST_UID - LAST_UID", "[Error - No name]",
                 'Press "Enter" or "Esc".', "Run `Settings > General` or `click 'Save'`."):
        prepared = prepare(text)
        assert not prepared.shown and prepared.restore(prepared.segments) == text, text


def test_signing_in_up_and_out_is_read_as_the_words_the_model_learned():
    """The model wrote "Sign in" as "Signieren ein", "Sign up" as "Signieren", "Signed in as:" as "Signiert als:", and
    "Log in", "Register", "Logged in as:" as German does: a verb's "sign in", "sign up", "sign out" is read so; a noun
    and a headword in small letters stay as written."""
    for text, read in (("Sign in", "Log in"), ("Sign up for free!", "Register for free!"), ("Sign out", "Log out"),
                       ("Please sign in to continue.", "Please log in to continue."),
                       ("Stay signed in", "Stay logged in"), ("Signing up...", "Registering..."),
                       ("You are signed in as XX0X.", "You are logged in as XX0X."),
                       ("You can sign out at any time.", "You can log out at any time."),
                       # a noun ("a sign-in from a new device": "ein Vorzeichen")
                       ("We noticed a sign-in on the Sign-Up page.", "We noticed a login on the Registration page."),
                       ("Sign-out failed.", "Logout failed.")):
        assert prepare(text, preserve_placeholders=False).segments == [read], text
    for text in ("There is a sign in the window.", "Size of the charge sign in pixels.", "sign up",
                 "The treaty was signed in 1990 by both.", "Put a sign up on the door.", "Use single sign-on."):
        assert prepare(text, preserve_placeholders=False).segments == [text], text


def test_an_instructions_tap_is_read_as_click_and_written_as_tippen():
    """The model wrote "Tap anywhere to continue." as "Bitte schließen Sie es weiter." and "Click anywhere to
    continue." as "Klicken Sie irgendwo, um fortzufahren.": an instruction's "tap" is read as "click", and the German
    for clicking written as tapping; a noun, a headword in small letters, a menu entry and a text that clicks too stay
    as written."""
    for text, read in (("Tap anywhere to continue.", "Click anywhere to continue."),
                       ("Double-tap to zoom in.", "Double-click to zoom in."),
                       ("Please tap the screen twice.", "Please click the screen twice."),
                       ("Open it and tap Done.", "Open it and click Done."),
                       ("  Tap here to retry", "Click here to retry")):
        assert prepare(text, preserve_placeholders=False).segments == [read], text
    for text in ("Tap water is safe to drink.", "tap the wire", "Tap Time", "The tap is dripping.",
                 "Click or tap the icon.", "I felt a tap on the shoulder.", "Tap"):
        assert prepare(text, preserve_placeholders=False).segments == [text], text
    assert prepare("Tap Settings.").segments == ["Click XX0X.", "Settings"]  # an instruction: a label to tap
    prepared = prepare("Tap and hold to drag, double-tap to open.", preserve_placeholders=False)
    assert prepared.segments == ["Click and hold to drag, double-click to open."]
    assert (prepared.restore(["Klicken und halten zum Ziehen, Doppelklick zum Öffnen."])
            == "Tippen und halten zum Ziehen, Doppeltipp zum Öffnen.")


def test_an_ordinal_before_a_noun_is_read_as_second_and_written_with_the_models_ending():
    """The model lost or changed ordinals from "fourth" on ("on the eleventh floor" came back as "auf dem Elfenboden",
    "the fifteenth floor" as "am fünften Boden", "on the 15th floor" as "am 15.") and wrote "second" with the ending
    the article and case ask ("im zweiten Stock"): such an ordinal before a noun, in words or digits, is read as
    "second" and its German stem, or its digits and a dot, written in the stand-in's place; the segment streams whole.
    First to third in words, a fraction, a list, an idiom, a name and a segment that says "second" itself stay as
    written."""
    for text, read, translation, restored in (
            ("She lives on the fifteenth floor.", "She lives on the second floor.", "Sie lebt im zweiten Stock.",
             "Sie lebt im fünfzehnten Stock."),
            ("It was her thirtieth birthday.", "It was her second birthday.", "Es war ihr zweiter Geburtstag.",
             "Es war ihr dreißigster Geburtstag."),
            ("The twenty-fifth anniversary", "The second anniversary", "Der zweite Jahrestag",
             "Der fünfundzwanzigste Jahrestag"),
            ("Every fifth student speaks French.", "Every second student speaks French.",
             "Jeder zweite Schüler spricht Französisch.", "Jeder fünfte Schüler spricht Französisch."),
            ("It is the fourth largest city.", "It is the second largest city.", "Es ist die zweitgrößte Stadt.",
             "Es ist die viertgrößte Stadt."),
            ("The eighth chapter", "The second chapter", "Zweites Kapitel", "Achtes Kapitel"),
            ("a hundredth chance, secondly", "a second chance, secondly", "eine zweite Chance, zweitens",
             "eine hundertste Chance, zweitens"),
            ("She lives on the 15th floor.", "She lives on the second floor.", "Sie lebt im zweiten Stock.",
             "Sie lebt im 15. Stock."),
            ("Click the 3rd button.", "Click the second button.", "Klicken Sie auf den zweiten Knopf.",
             "Klicken Sie auf den 3. Knopf."),
            ("the 4th largest city", "the second largest city", "die zweitgrößte Stadt", "die 4.-größte Stadt")):
        prepared = prepare(text, preserve_placeholders=False)
        assert prepared.segments == [read], text
        assert prepared.restore([translation]) == restored, text
        assert not prepared.streams(0), text
    for text in ("This is my first visit.", "She lives on the second floor.", "a fifth of the cake",
                 "the fourth and fifth floors", "at the eleventh hour", "He lives on Fifth Avenue.",
                 "The fifth floor is above the second one.", "He came in fifth.", "the fifth floor and the sixth floor",
                 "the 5th of the month"):
        assert prepare(text, preserve_placeholders=False).segments == [text], text


def test_the_how_manieth_time_is_written_as_german_writes_it():
    """The model wrote "for the fifth time" as "für die fünfte Zeit" and "the third time" as "der dritte Zeit": they
    are "zum fünften Mal" and "das dritte Mal", with a capital where the sentence starts; not after another
    preposition, whose case the model chooses."""
    _restored_as_written({"He tried for the fifth time.": "He tried zum fünften Mal.",
                          "For the first time, it worked.": "Zum ersten Mal, it worked.",
                          "I am asking you for the last time.": "I am asking you zum letzten Mal.",
                          "He failed for the 3rd time.": "He failed zum 3. Mal.",
                          "for the twenty-first time": "zum einundzwanzigsten Mal",
                          "This is the fourth time I called.": "This is das vierte Mal I called.",
                          "The next time you come, call me.": "Das nächste Mal you come, call me."},
                         ("I remember it from the first time.", "It failed at the same time.",
                          "It was the time of my life.", "for the first timer"))


def test_a_run_of_marks_ending_a_sentence_is_read_as_one_and_written_back():
    """The model learnt one closing mark ("How are you???" came back as "Wie sind Sie?", "Great job!!" as "Große
    Job!"): a sentence's closing run of "!" and "?" is read as its first mark, and the translation's closing mark,
    or a missing one after its last word, is written as the run; the segment streams whole."""
    for text, read, translation, restored in (
            ("How are you???", "How are you?", "Wie geht's?", "Wie geht's???"),
            ("Wait... what?!", "Wait... what?", "Warten...?", "Warten...?!"),
            ("Couldn't find menu!?", "Couldn't find menu!", "Menü nicht gefunden.", "Menü nicht gefunden!?"),
            ('He shouted "Stop!!"', 'He shouted "Stop!"', 'Er rief „Halt“', 'Er rief „Halt!!“'),
            ("You won!!!", "You won!", "Du hast gewonnen!!!!!!", "Du hast gewonnen!!!"),
            # reStructuredText's "::" before a literal block ("... license::" came back with one ":"; of 46 texts with a
            # line that ends so among the catalogs, documentation and READMEs here, 10 kept them all, now 46)
            ("Released under the BSD license::", "Released under the BSD license:", "Veröffentlicht unter BSD:",
             "Veröffentlicht unter BSD::"),
            ("Running it gets us::", "Running it gets us:", "Ausgeführt erhalten wir", "Ausgeführt erhalten wir::")):
        prepared = read_whole_and_restored(text, translation, preserve_placeholders=False)
        assert prepared == ([read], False, restored), text
    for text in ("Really?", "Stop!", "Wait... what? No!", "Which one?! I see", "The list:::", "Use std:: here."):
        prepared = prepare(text, preserve_placeholders=False)
        assert prepared.restore(prepared.segments) == text, text
    assert prepare("Go!!", preserve_placeholders=False).restore(["Los..."]) == "Los..."  # an ellipsis stays


def test_a_label_after_the_verb_that_clicks_it_is_translated_alone():
    """Without quotation marks the model wrote a label as a word of the sentence ("Click Cancel to go back." came back
    as "Klicken Sie ab, um zurückzugehen."): after "click", "tap" or "press" in a sentence it is an item translated
    alone, "auf" before it where "klicken" takes it, also where it ends the sentence ("Click Next." came back as
    "Nächste Klicken.") or is emphasized; not a key, nor after "select", nor in a menu's entry ("Click Mode")."""
    for text, segments in (("Click Cancel to go back.", ["Click XX0X to go back.", "Cancel"]),
                           ("Press the Stop button to end it", ["Press the XX0X button to end it", "Stop"]),
                           ("Fill it in, then click on Save As.", ["Fill it in, then click on XX0X.", "Save As"]),
                           ("Press OK, then Next.", ["Press XX0X, then Next.", "OK"]),
                           ("Then press Record.", ["Then press XX0X.", "Record"]),
                           # and another (was "Klicken und Schließen schließen.")
                           ("Click Save and Close.", ["Click XX0X and XX1X.", "Save", "Close"]),
                           ("Press OK or Cancel to continue.", ["Press XX0X or XX1X to continue.", "OK", "Cancel"]),
                           ("Right-click Desktop to change it.", ["Right-click XX0X to change it.", "Desktop"])):
        prepared = prepare(text)
        assert prepared.segments == segments, text
        assert prepared.restore([segment.upper() for segment in segments]) == text.upper(), text
    prepared = prepare("Click Cancel to go back.")
    assert prepared.restore(["Klicken Sie XX0X, um zurückzugehen.", "Abbrechen"]) == (
        "Klicken Sie auf Abbrechen, um zurückzugehen.")
    prepared = prepare("Double-click Setup to install it.")  # was "Doppelklicke ich ihn"; German's noun takes "auf"
    assert prepared.restore(["Doppelklick XX0X zum Installieren.", "Setup"]) == (
        "Doppelklick auf Setup zum Installieren.")
    # emphasized, as Markdown and HTML write a label (the model dropped it: "Click **Save** to continue." came back as
    # "Klicken Sie **zum** Fortfahren."); "auf" also before the tags around it
    prepared = prepare("Click **Save** to continue.", take_out_tags=True)
    assert prepared.segments == ["Click XX0X to continue.", "Save"]
    assert prepared.restore(["Klicken Sie XX0X, um fortzufahren.", "Speichern"]) == (
        "Klicken Sie auf **Speichern**, um fortzufahren.")
    prepared = prepare("Click __Save__ and then __Close__.", take_out_tags=True)  # in underscores too
    assert prepared.segments[1:] == ["Save"] and prepared.protected[0] == "__Save__"
    prepared = prepare("Click <b>Save</b> to continue.", take_out_tags=True)  # the tags placed by alignments
    assert prepared.segments == ["Click XX0X to continue.", "Save"] and prepared.protected == ["<b>", "Save", "</b>"]
    assert prepared.restore(["Klicken Sie XX1XXX0XXX2X, um fortzufahren.", "Speichern"]) == (
        "Klicken Sie auf <b>Speichern</b>, um fortzufahren.")
    assert prepared.restore(["Dann XX1XXX0XXX2X klicken.", "Speichern"]) == "Dann auf <b>Speichern</b> klicken."
    for text in ("Press Enter to continue.", "Press Ctrl to select more.", "Select Contacts to merge",
                 "Click Here To Continue", "Press Start", "Press START to play.", "Click the button to go on.",
                 "Click Mode", "Press Release.txt to read it"):
        assert not prepare(text).shown, text


def test_operators_standing_alone_are_kept_as_written_but_not_dashes_between_clauses():
    """The model wrote "==" as "=" and "&&" as "&"; catalogs keep them. A dash between clauses stays text (as a
    token the model lost the words around it), and marks inside a word ("**Bold**", "a->b") are the word's."""
    for text, items in (("if x == y && z != a", ["==", "&&", "!="]), ("step -> next", ["->"]),
                        ("Rating >= a || b <= c", [">=", "||", "<="]), ("Use << and >> to move.", ["<<", ">>"]),
                        ("This file -- it is old --- and ---- gone", []), ("**Bold** and a->b", [])):
        prepared = prepare(text)
        assert prepared.protected == items, text
        assert prepared.restore(prepared.segments) == text


def test_a_long_line_is_split_into_the_same_sentences_window_by_window(monkeypatch):
    """The splitter reads a long line a window at a time (its time grows with the square of some inputs); a
    paragraph of ordinary sentences comes out as it would whole, and no call reads more than the largest window."""
    rng = random.Random(5)
    line = " ".join(rng.choice(SENTENCES + ['He said "Hi!" and left.', "«Oui!» dit-il.", "(See above.)"])
                    for _ in range(600))
    read, segment = [], sentencex.segment
    monkeypatch.setattr(sentencex, "segment", lambda language, text: read.append(len(text)) or segment(language, text))
    windowed = sentences(line)
    hostile = sentences('!"' * 16000)
    wordless = sentences("`" * 32000)
    assert windowed == [part for part in segment("en", line) if part]
    assert "".join(hostile) == '!"' * 16000 and max(map(len, hostile)) <= SPLITTER_MAX_WINDOW  # no space: one a window
    assert "".join(wordless) == "`" * 32000
    assert max(read) <= SPLITTER_MAX_WINDOW


def test_markdown_emphasis_leaves_the_sentence_as_tags_do_where_they_may():
    """Read with their words, Markdown's marks cost the model the words they wrap ("This is **very important**" came
    back as "Dies ist **Beimer**"): where tags may leave the sentence, a pair is an element's tags; what only looks
    like one stays ("2*3*4", globs, "**kwargs", an operator between spaces); without alignments, in HTML and without
    placeholders the marks are text as before."""
    text = "This is **very important** and *must* be done. **Note:** press *%s*."
    prepared = prepare(text, take_out_tags=True)
    assert prepared.segments == ["This is very important and must be done.", "Note: press XX0X."]
    assert [[(m.before, m.after, segment[m.start:m.end]) for m in moved]
            for moved, segment in zip(prepared.moved, prepared.segments)] == \
        [[(0, 1, "very important"), (2, 3, "must")], [(1, 2, "Note:"), (3, 4, "XX0X")]]  # kept apart from "%s"
    assert prepared.restore(["Das ist XX0Xsehr wichtigXX1X und XX2XmussXX3X.",
                             "XX1XHinweis:XX2X XX3XXX0XXX4X drücken."]) == \
        "Das ist **sehr wichtig** und *muss*. **Hinweis:** *%s* drücken."
    for other in ("Compute 2*3*4 now.", "Copy *.txt and *.bak files.", "Use *args and **kwargs.", "So a ** b and c * d."):
        assert "*" in "".join(prepare(other, take_out_tags=True).segments), other
    # the marks stay apart from an item beside them ("** %s" as one item kept both tokens in the sentence)
    warning = prepare("**Warning:** %s is old; use a * %s.", take_out_tags=True)
    assert warning.segments == ["Warning: XX0X is old; use a * XX1X."] and warning.protected[:2] == ["**", "**"]
    for kept in (prepare(text), prepare(text, html=True, take_out_tags=True),
                 prepare(text, preserve_placeholders=False, take_out_tags=True)):
        assert "**" in kept.segments[0] and not any(kept.moved), kept.segments
    # Two elements of one mark put directly one inside the other (the model dropped the words of one) are written in
    # both marks: "**Achsen**" read as strong emphasis ("*axes* with an *e*" came back so)
    nested = prepare("Run `ls`. Between *axes* and *axis*, or *e* and *i*.", take_out_tags=True)
    assert nested.restore(["XX0X ausführen.", "Zwischen XX0XXX2XAchsenXX3XXX1X, XX4XeXX5X und XX6XiXX7X."]) == \
        "`ls` ausführen. Zwischen *_Achsen_*, *e* und *i*."


def test_markdown_emphasis_in_underscores_leaves_the_sentence_too():
    """Markdown's "__bold__" and "_italic_" as its "**" and "*": read with their words, "You must __always__ check" came
    back as "Sie müssen __Wählen__ überprüfen" and "__very important__" as "__Wert important__" (its "important__"
    taken for a reST reference). Not a name between double underscores ("__init__", "__FILE__", Jest's "__tests__"),
    an identifier's underscores, nor reST's references."""
    underscored = prepare("This is __very important__ and _must_ be done.", take_out_tags=True)
    assert underscored.segments == ["This is very important and must be done."]
    assert underscored.restore(["Das ist XX0Xsehr wichtigXX1X und XX2XmussXX3X."]) == \
        "Das ist __sehr wichtig__ und _muss_."
    assert prepare("You must __always__ check it.", take_out_tags=True).segments == ["You must always check it."]
    for other in ("Override __init__ and __len__ here.", "Use __FILE__ and __attribute__ in C.",
                  "Put it in a __tests__ folder.", "Rename my_file_name to other_name now.",
                  "Call _exit and _Exit there."):
        assert not any(prepare(other, take_out_tags=True).moved[0]), other
    references = prepare("See `Draft 7 <https://b.example>`_ and `Draft 3 <https://c.example>`_ too.",
                         take_out_tags=True)
    assert [item for item in references.protected if "_" in item] == [" <https://b.example>`_",
                                                                       " <https://c.example>`_"]


def test_latex_markup_is_kept_and_its_formatted_words_and_titles_translated():
    """LaTeX: read, "\\textbf{faster}" and "\\emph{very}" came back as written (the braces were a placeholder's), half a
    footnote was translated and a section's title ran into the sentence after it. A formatting command and its "}"
    are an element's tags, which leave the sentence; a title's (a section's, a caption's, a footnote's) separate it
    from the words around; every other command, a comment and a code environment are kept as written, mathematics
    as MATH keeps it. Not in a text without LaTeX's commands ("\\emph" alone, "{name}" stay what they were)."""
    text = ("\\section{Introduction} This is \\emph{very} important, see \\cite{smith2020} and Table~\\ref{tab:x}."
            "\nThe \\LaTeX\\ team uses $x \\in \\mathbb{R}$ here.% a comment\n"
            "\\begin{verbatim}\nKeep \\emph{this}.\n\\end{verbatim}")
    prepared = prepare(text, take_out_tags=True)
    assert prepared.segments == ["Introduction", "This is very important, see XX0X and Table~XX1X.",
                                 "The XX0Xteam uses XX1X here.XX2X"]
    assert prepared.protected == ["\\section{", "}", "\\emph{", "}", "\\cite{smith2020}", "\\ref{tab:x}", "\\LaTeX\\ ",
                                  "$x \\in \\mathbb{R}$", "% a comment",
                                  "\\begin{verbatim}\nKeep \\emph{this}.\n\\end{verbatim}"]
    assert prepared.moved[1] == [MovedTags(2, 3, 8, 12)]  # "\\emph{" and its "}" around "very"
    restored = prepared.restore(["Einleitung", "Das ist XX2XsehrXX3X wichtig, siehe XX0X und Tabelle~XX1X.",
                                 "Das XX0XTeam nimmt XX1X hier.XX2X"])
    assert restored.startswith("\\section{Einleitung} Das ist \\emph{sehr} wichtig, siehe \\cite{smith2020} und "
                               "Tabelle~\\ref{tab:x}.\nDas \\LaTeX\\ Team nimmt $x \\in \\mathbb{R}$ hier.% a "
                               "comment\n")
    link = prepare("Visit \\href{https://example.org/a}{our site} today.", take_out_tags=True)
    assert link.segments == ["Visit our site today."] and link.protected == ["\\href{https://example.org/a}{", "}"]
    nested = prepare("A \\footnote{See \\textbf{the \\cs{par} list}.} b", take_out_tags=True)
    assert nested.protected[:2] == ["\\footnote{", "\\textbf{"] and "See the XX0X list." in nested.segments
    shown = "\\begin{verbatim}\n\\begin{equation}\na=b\n\\end{equation}\n\\end{verbatim}"  # one inside another
    assert prepare(f"\\LaTeX\\ shows {shown} here.").protected == ["\\LaTeX\\ ", shown]
    assert prepare("Use \\verb|\\ref| or \\verb+\\label+ here.").protected == ["\\verb|\\ref|", "\\verb+\\label+"]
    # Commands of no argument that a document's paragraphs hold or are: "\\printbibliography" came back as
    # "\\printbibliografie", "\\centering The house" as "\\zent das Haus"
    assert prepare("\\printbibliography").segments == []
    assert prepare("\\centering The house\\ldots").protected == ["\\centering", "\\ldots"]
    # A table's cells and rows are segments: read as one, "\\textbf{Threat} & \\textbf{Issue}" came back as
    # "\\textbf{Threat} & Ausgabe \\textbf{&}"; "\\&" is the character
    row = prepare("\\textbf{Threat} & \\textbf{Issue} \\\\ \\hline Apples \\& pears & old dogs \\\\",
                  take_out_tags=True)
    assert row.segments == ["Threat", "Issue", "XX0X Apples XX1X pears", "old dogs"]
    assert prepare("Old dogs & cats \\\\").segments == ["Old dogs", "cats"] and prepare("Tom & Jerry").segments == [
        "Tom & Jerry"]
    # German quotation marks are written as TeX spells them (",," and "``"; "„" failed pdflatex in a paper's OT1
    # encoding), in the text's segments and between them; not in a text that writes such marks itself
    assert prepare('He said, "I come." \\cite{y}').restore(["Er sagte:", "Ich komme."]) == \
        "Er sagte: ,,Ich komme.`` \\cite{y}"
    assert prepare("The best way \\cite{y}.").restore(["Der „beste“ Weg XX0X."]) == "Der ,,beste`` Weg \\cite{y}."
    assert prepare('He said, "I come."').restore(["Er sagte:", "Ich komme."]) == "Er sagte: „Ich komme.“"
    assert "»Ich komme.«" in prepare("He said, “I come.” \\cite{y}").restore(["Er sagte:", "Ich komme."])
    # TeX's double quotes are a quotation's marks: read as GNU's `quotes' inside them, "``unknown''" came back as
    # "`unknown'"
    quoted = prepare("It returns ``unknown'' here.")
    assert quoted.protected == ["``", "''"] and quoted.restore(["Es gibt XX0XunbekanntXX1X zurück."]) == \
        "Es gibt ``unbekannt'' zurück."
    assert prepare("Use \\emph or {name} here.").protected == ["{name}"]  # no LaTeX
    # nor a Windows path whose directory spells a command: "50% of C:\\hline\\x" was read as LaTeX, "% of ..." a comment
    for path in ("C:\\hline\\x", "D:\\Users\\item", "%TEMP%\\today"):
        plain = prepare(f'It is 50% of {path} and "done".')
        assert not plain.latex and plain.protected == ["50", path, '"done"']
    assert prepare("It is C:\\x, \\today").latex
    # nor a Markdown code span ("`\\pL{1000}` may look small, but `\\pL`" became one item, its words lost)
    spans = prepare("Use `\\section{Intro}` here: `\\pL{1000}` may look small, but `\\pL` is large.")
    assert not spans.latex and spans.protected == ["`\\section{Intro}`", "`\\pL{1000}`", "`\\pL`"]
    fence = "```\n$ rg '\\pL{1000}'\nCompiled regex exceeds size limit.\n```"  # its output was translated
    assert prepare(fence).protected == [fence]
    assert prepare("\\emph{never closed and \\LaTeX", take_out_tags=True).protected == ["\\emph{", "\\LaTeX"]


def test_bbcode_tags_are_kept_whole_and_leave_the_sentence_as_html_tags_do():
    """Godot's rich text, forums' and Steam's markup: the model got "[color=red]" whole and "[/b]" as a path, and a
    URL ran on through "]" into the link's text ("https://example.org]Visit"). Each tag is an item; an element's
    tags leave the sentence where the model has alignments ("[b]" paired apart from "<b>"); a key's mark in capitals
    ("[I]nstall"), a plural's "file[s]" and an index "a[i]" are text."""
    text = "Find the [b]key[/b] at [url=https://example.org/a]our site[/url], [color=#ff0000]now[/color]! [*] One"
    assert protected_items(text) == ["[*]", "[/b]", "[/color]", "[/url]", "[b]", "[color=#ff0000]",
                                     "[url=https://example.org/a]"]
    prepared = prepare(text + " <b>two</b>.", take_out_tags=True)
    assert prepared.segments == ["Find the key at our site, now!", "XX0X One two."]
    assert prepared.restore(["Finde den Schlüssel auf unserer Seite, jetzt!", "XX0X Eins zwei."]).count("[/") == 3
    for text_alone in ("[I]nstall it again", "Delete file[s]?", "Set a[i] to 0"):
        assert protected_items(text_alone) == [], text_alone
    # SubStation Alpha's toggles are tags too; its other override blocks items
    subtitle = prepare("{\\i1}Thank you{\\i0} very {\\pos(400,570)}much!", take_out_tags=True)
    assert subtitle.segments == ["Thank you very XX0Xmuch!"] and subtitle.protected[1:] == ["{\\i0}", "{\\pos(400,570)}"]
    # brackets in a URL only around an IPv6 host
    assert protected_items("Open http://[::1]:8080/x or https://example.org]Visit") == [
        "http://[::1]:8080/x", "https://example.org"]
    # of any scheme ("git://github.com/x.git" came back as "git://git.com/x.git")
    text = "Clone git://github.com/a/b.git or svn+ssh://host/repo; mount smb://server/share, use alsa://hw:0, x-y://z."
    assert protected_items(text) == ["alsa://hw:0", "git://github.com/a/b.git", "smb://server/share",
                                     "svn+ssh://host/repo", "x-y://z"]
    # without its scheme from "www." with a path ("www.example.org/files" came back as "www.example.org/Dateien")
    assert protected_items("Get it from www.example.org/files, not www.example.org.") == [
        "www.example.org", "www.example.org/files"]


def test_no_sentence_ends_where_no_space_follows_but_before_a_capital():
    """The splitter ended a sentence after a full stop an item follows: "ends with '.%s' here" reached the model as
    "ends with '." and "%s' here" (without placeholders; with them "expected '.XX0X" and "' here"), "Version 1.%d"
    as "Version 1." and "%d"; and inside names and words: "Use ASP.NET" as "Use ASP." and "NET", "sb.'s" as "sb.'"
    and "s". Before a capital that begins no acronym the cut stays (a missing space, a tag's token), and after marks
    alone."""
    for line in ("It ends with '.%s' here.", "Saved as file.%s now.", "Version 1.%d is out.", 'Type "?" for help.',
                 "Use ASP.NET for it.", "Set LANG=de_DE.UTF-8 first.", "Read the .CSV or .OFX file.",
                 "ignore sb.'s advice"):
        assert sentences(line) == [line]
    assert sentences("Show the window.Specify 0 to hide it.") == ["Show the window.", "Specify 0 to hide it."]
    assert sentences("Save it.XX1XQuit now.") == ["Save it.", "XX1XQuit now."]
    assert sentences("...but this one.") == ["...", "but this one."]
    assert sentences("Hello. World.") == ["Hello. ", "World."]


def test_no_sentence_ends_after_an_abbreviation_before_a_small_letter_or_a_number():
    """The splitter ended sentences after abbreviations it does not know ("It is approx. 5 km long." reached the model
    as "It is approx." and "5 km long.", "std. deviation" as "std." and "deviation")."""
    for line in ("It is approx. 5 km long.", "Characters incl. spaces", "Multiple of std. dev.", "It took 3 hrs. and more.",
                 "Misc. Options", "Max. Polyphony"):  # these qualify what follows, a capital too
        assert sentences(line) == [line]
    for line in ("It is approx. 5 km long.", "Max. %d users", "Sample mean = %g, std. deviation = %g"):  # items too
        assert len(prepare(line).segments) == 1, line
    for line in ("The total is 5 hrs. Next we rest.", "I am done. 5 people came.", "Add it. Then go.",
                 "i went home. then i slept."):  # as one segment the model dropped the second
        assert len(sentences(line)) == 2, line
    assert sentences("say sth. in chorus") == ["say sth. in chorus"]
    # nor before a label that closes a parenthesis the sentence opened (the splitter read "x)" as a list's label)
    assert sentences("raised to the power degree(f, x) - degree(g, x) + 1.") == [
        "raised to the power degree(f, x) - degree(g, x) + 1."]
    assert prepare("Choose a) the first b) the second.").segments == ["Choose", "the first", "the second."]  # a list


def test_every_letter_of_one_long_word_the_model_cannot_read_makes_one_span():
    text = "x " + "漢a" * 5000 + " y"
    spans = [(i, i + 1) for i, c in enumerate(text) if c == "漢"]
    assert whole_words(text, spans) == [(2, len(text) - 2)]


def test_thousands_of_block_tags_each_separate_segments():
    """Block tags are found by their tokens (one pattern for all, where an alternative per tag made the split
    quadratic), placeholders beside them stay in their segments."""
    text = "<p>One %s.</p>" * 3000
    prepared = prepare(text, html=True)
    assert prepared.segments == ["One XX0X."] * 3000
    assert prepared.restore(prepared.segments) == text


def test_each_sentence_numbers_its_tokens_from_zero_as_the_training_data_does():
    """Numbered across the text, the fifth sentence's one placeholder reached the model as XX14X, which it never saw in
    training: catalog messages with their tokens shifted by 10 came back repaired in 336 of 600 (27 unshifted). Tokens
    taken out with their tags are numbered after those the model reads, and what they wrap moves with the text."""
    text = "Copy %s to %s and {name}. " * 4 + "Save <b>the</b> {file} <i>now</i>."
    prepared = prepare(text, take_out_tags=True)
    assert prepared.segments == ["Copy XX0X to XX1X and XX2X."] * 4 + ["Save the XX0X now."]
    last = prepared.segments[-1]
    assert [(m.before, m.after, last[m.start:m.end]) for m in prepared.moved[-1]] == [(1, 2, "the"), (3, 4, "now")]
    translated = ["Kopiere XX0X nach XX1X und XX2X."] * 4 + ["Speichere XX1XdieXX2X XX0X XX3XjetztXX4X."]
    assert prepared.restore(translated) == \
        "Kopiere %s nach %s und {name}. " * 4 + "Speichere <b>die</b> {file} <i>jetzt</i>."
    assert prepared.repairs == 0
    # A token beyond the sentence's own is the model's invention: dropped, never another sentence's item
    assert prepared.restore_segment(4, "Speichere XX7X XX1XdieXX2X XX0X XX3XjetztXX4X.") == \
        "Speichere <b>die</b> {file} <i>jetzt</i>."


def test_curly_quotation_marks_come_back_as_german_writes_them():
    """German catalogs write “…” and ‘…’ as »…« (2,355 of the 2,555 training messages with “…”, 317 of 327 with
    ‘…’); kept as items, they came back English, and “ closes a German quotation. Not in code, not an apostrophe, not
    where as many marks would not open as close, not with placeholders off (no items but the marks)."""
    prepared = prepare("Could not scan folder “%s”: it doesn’t exist. Use ‘fuzzy’ picking.")
    assert prepared.restore(["Ordner XX0X konnte nicht gelesen werden: es existiert nicht.",
                             "XX0XunscharfesXX1X Auswählen verwenden."]) == (
        "Ordner »%s« konnte nicht gelesen werden: es existiert nicht. »unscharfes« Auswählen verwenden.")
    code = prepare("Run `echo “hi”` now.")
    assert code.restore([code.segments[0].replace("Run", "Führe").replace("now", "jetzt aus")]) == (
        "Führe `echo “hi”` jetzt aus.")
    beside = prepare("For example: “Angela’s Files” or “Backup”.")  # a name and its mark are one item
    assert beside.restore(["Zum Beispiel: XX0X Dateien XX1X oder XX2XBackupXX3X."]) == (
        "Zum Beispiel: »Angela’s Dateien« oder »Backup«.")
    indented = prepare("# Usage\n\nRun this:\n\n    echo “hi”\n\nThen “look” at it.")  # Markdown's indented code
    assert indented.restore(indented.segments) == "# Usage\n\nRun this:\n\n    echo “hi”\n\nThen »look« at it."
    unbalanced = prepare("Press Ctrl+“S” now.")
    assert "“" in unbalanced.restore(unbalanced.segments) and "»" not in unbalanced.restore(unbalanced.segments)
    plain = prepare("Enable “Slow Keys” now.", preserve_placeholders=False)
    assert plain.restore(["XX0XLangsame TastenXX1X jetzt aktivieren."]) == "“Langsame Tasten” jetzt aktivieren."


def test_quotation_marks_the_model_dropped_are_kept():
    """The model dropped quotation marks its vocabulary has: "could not open directory '%s'" came back as "Konnte
    Verzeichnis %s nicht öffnen", 'Enable “Slow Keys”' as 'Slow-Schlüssel” aktivieren', "Click 'Save' to continue."
    as "Klicken Sie Speichern, um fortzufahren.". Curly marks, and ASCII quotes around a protected item or a term (up to
    four words, no punctuation), are items; ASCII quotes around a sentence (the model writes 'Villa, he said.' as
    „Villa, sagte er.“), and an apostrophe, stay text."""
    prepared = prepare("Could not open '%s' or “{name}”: it's the users' 'Old' one. Press «%1» or “Slow Keys”.")
    assert prepared.protected == ["'%s'", "“{name}”", "'", "'", "«%1»", "“", "”"]
    assert prepared.segments == ["Could not open XX0X or XX1X: it's the users' XX2XOldXX3X one.",
                                 "Press XX0X or XX1XSlow KeysXX2X."]
    assert prepared.restore(["XX0X oder XX1X: das XX2X alte XX3X.", "XX0X oder XX1XLangsame TastenXX2X tippen."]) == \
        "'%s' oder »{name}«: das 'alte'. «%1» oder »Langsame Tasten« tippen."  # no space inside the marks
    # nor the marks the model put around them: 'around "untracked cache"' came back as 'um „"untracked Cache"“'
    around = prepare('Fix bugs around "untracked cache" now.')
    assert around.restore(['Fehler um „XX0Xuntracked CacheXX1X“ beheben.']) == (
        'Fehler um "untracked Cache" beheben.')
    own = prepare("house «{0}»“ ", preserve_placeholders=False)  # but the source's own mark there stays
    assert own.restore(own.segments) == "house «{0}»“ "
    assert prepare("He said 'Go home, now.' twice.").protected == []
    # escaped as a web page does, such marks are items too: the page's text is translated as the plain text is
    escaped = prepare("Click &quot;Save&quot; or &#39;Open it&#39;, &quot;not this one.&quot;", html=True)
    assert escaped.segments == ['Click XX0XSaveXX1X or XX2XOpen itXX3X, "not this one."']
    assert escaped.restore(["XX0XSpeichernXX1X oder XX2XÖffnenXX3X, \"nicht dies.\""]) == \
        "&quot;Speichern&quot; oder &#39;Öffnen&#39;, &quot;nicht dies.&quot;"
    # curly ones too, around anything on a line, a tag beside them or not: read as characters, '<p>&ldquo;Plain
    # text&rdquo; is the default.</p>' came back as 'Plain-Text&rdquo; ist ...' (an apostrophe stays text)
    curly = prepare("<p>&ldquo;Plain text&rdquo; is the default; I don&rsquo;t &bdquo;know&ldquo;.</p>", html=True)
    assert curly.segments == ["XX0XPlain textXX1X is the default; I don’t XX2XknowXX3X."]
    assert curly.restore(["XX0XKlartextXX1X ist Standard; ich XX2XweißXX3X nicht."]) == (
        "<p>&ldquo;Klartext&rdquo; ist Standard; ich &bdquo;weiß&ldquo; nicht.</p>")
    assert prepare("Open '%s'", preserve_placeholders=False).segments == ["Open '%s'"]
    # Items that are one token to the model are one item in quotes: "%s: unrecognized option '%s%s'" came back with
    # "Unbekannte Option %s%s", "'%s:%d'" without its marks
    joined = prepare("%s: unrecognized option '%s%s' for '%s:%d' or '%s x'")
    assert joined.protected == ["%s", "'%s%s'", "'%s:%d'", "'%s", "'"]  # a term with an item: its marks apart
    assert joined.segments == ["XX0X: unrecognized option XX1X for XX2X or XX3X xXX4X"]
    # and so are such items with joining marks before or after them, an option, an extension, a key: "Invalid option
    # '--%s'" came back as "Ungültige Option --%s", and "expected '.%s' here" was cut into two sentences inside it
    options = prepare("Invalid option '--%s' or '-%c'; expected '.%s' here, or '%s=' and '%s:'.")
    assert options.protected == ["'--%s'", "'-%c'", "'.%s'", "'%s='", "'%s:'"]
    assert options.segments == ["Invalid option XX0X or XX1X; expected XX2X here, or XX3X and XX4X."]
    # in ASCII double quotes alike: 'Type "?" for help.' came back as '" eingeben?" für Hilfe.'
    double = prepare('Type "?" for help, "--%s" or "]", not "Help" (a 5" screen).')
    assert double.protected == ['"?"', '"--%s"', '"]"', '"', '"', "5"]
    assert double.segments == ['Type XX0X for help, XX1X or XX2X, not XX3XHelpXX4X', 'a XX0X" screen']  # apart
    # A quotation of marks alone is one item: "invalid number after '.'" came back as "Ungültige Zahl nach ..",
    # "missing '://' suffix" as "fehlende :///-Suffix"; so is one in GNU's `quotes' ("use `exit'" as "verwenden Sie
    # exit", "`movprfx'" as "`Max'")
    marks = prepare("expected '=' or ';' after “\\”, not `/' or '://' (it's 'A'). Use `exit' or `%s --help'.")
    assert marks.protected == ["'='", "';'", "“\\”", "`/'", "'://'", "'", "'", "`exit'", "`%s --help'"]
    assert marks.segments == ["expected XX0X or XX1X after XX2X, not XX3X or XX4X", "it's XX0XAXX1X",
                              "Use XX0X or XX1X."]
    # One word in small letters in ASCII quotes is a name, kept whole: a command's, a value's ("Run the 'locate' dialog"
    # came back as "Den Dialog 'Siele ausführen'", "'joe'" as "'Vertreten'"); the held-out catalogs' references keep
    # 139 of 174 such words as written
    names = prepare("Run the 'grep' dialog with \"power-saver\" or 'Save It' and \"Apply\".")
    assert names.protected == ["'grep'", '"power-saver"', "'", "'", '"', '"']
    # Translated as other text where placeholders are: GNU's marks stay, as curly ones do
    assert prepare("Use `exit' or '.'", preserve_placeholders=False).segments == ["Use XX0XexitXX1X or '.'"]
    # A Markdown code span may hold apostrophes: "`@import 'td/code-dark'`" lost its backticks; GNU's `quotes' stay
    # quotations where an apostrophe closes one
    spans = prepare("Add `@import 'td/code-dark'` or `don't`; use `exit' or `a', `b'.")
    assert spans.protected == ["`@import 'td/code-dark'`", "`don't`", "`exit'", "`a'", "`b'"]
    # and a quoted string before punctuation ("`@import 'td/main';`" lost them), but not an apostrophe in a word
    spans = prepare("Back to `@import 'td/main';` and `grep -rn 'BS mirror:' theme/`; not `don't do it' or `x`.")
    assert spans.protected == ["`@import 'td/main';`", "`grep -rn 'BS mirror:' theme/`", "`x`"]


def test_thousands_of_elements_each_leave_their_sentence():
    text = "A <b>red</b> house. " * 3000
    prepared = prepare(text, take_out_tags=True)
    assert prepared.segments == ["A red house."] * 3000
    assert prepared.moved[-1] == [MovedTags(0, 1, 2, 5)]
    assert prepared.restore(["Ein XX0XrotesXX1X Haus."] * 3000) == \
        "Ein <b>rotes</b> Haus. " * 3000


def test_thousands_of_adjacent_tokens_are_never_cut_by_the_splitters_window():
    """Tags that leave the sentence and references are tokens of their own: thousands in a row outgrow the splitter's
    window, whose end fell inside a token ("<b>" * 5000 came back with "XX301X" fragments in it)."""
    for text, options in (("<b>" * 5000 + " Hello.", {"take_out_tags": True}), ("a&nbsp;" * 3000, {}),
                          ("<i>x</i>&amp;" * 2000, {})):  # its tags stay tokens: identity puts none back by alignment
        prepared = prepare(text, fits=lambda s: len(s) <= 400, **options)
        assert prepared.restore(prepared.segments) == text


def test_a_sentence_over_the_limit_is_split_at_a_clause():
    sentence = "We came home late, the dog was hungry, and the cat slept on the warm sofa all night long."
    prepared = prepare(sentence, fits=lambda s: len(s) <= 40)
    assert all(len(s) <= 40 for s in prepared.segments) and len(prepared.segments) >= 3
    assert prepared.restore(prepared.segments) == sentence


def test_a_sentence_longer_than_the_model_translates_well_is_cut_between_words_only():
    """Pieces that fit the model's source limit but not its segment length are cut at a clause mark or a space,
    never inside a word: a word longer than the segment length stays whole unless it exceeds the limit itself."""
    sentence = "We came home late, the dog was hungry, and the cat slept on the warm sofa all night long."
    prepared = prepare(sentence, fits=lambda s: len(s) <= 400, short=lambda s: len(s) <= 40)
    assert all(len(s) <= 40 for s in prepared.segments) and len(prepared.segments) >= 3
    assert prepared.restore(prepared.segments) == sentence
    word = "Pneumonoultramicroscopicsilicovolcanoconiosis"
    for text, segments in ((f"{word} is a word.", [word, "is a word."]), (word, [word])):
        assert prepare(text, fits=lambda s: len(s) <= 400, short=lambda s: len(s) <= 20).segments == segments
    # longer than the limit itself it is cut, and each piece, a word the English side never writes, is kept as written
    cut = prepare(word, fits=lambda s: len(s) <= 30, short=lambda s: len(s) <= 20)
    assert cut.segments == [] and cut.restore([]) == word


def test_an_item_takes_the_digits_right_after_it_except_a_tag():
    """A token followed by a digit ("XX0X1") reads to the model as another token; a tag keeps its own token (block
    tags separate segments, inline ones may leave the sentence), and so does a character reference (it may be read
    as its character)."""
    for text, segments, items in (("Checkbook _1:", ["Checkbook XX0X:"], ["_1"]),
                                  ('-> "1.0K"', ["XX0X.0KXX1X"], ['-> "1', '"']),  # the arrow kept too
                                  ("key%%0A %s", ["keyXX0XA XX1X"], ["%%0", "%s"])):
        prepared = prepare(text, unknown=lambda t: [m.span() for m in re.finditer('[_"]', t)])  # the vocabulary lacks them
        assert (prepared.segments, prepared.protected) == (segments, items)
        assert prepared.restore(prepared.segments) == text
    prepared = prepare("<p>1. Item</p><p>2. Item</p>", html=True)
    assert prepared.protected[:1] == ["<p>"] and len(prepared.segments) == 2
    prepared = prepare("Page&nbsp;1 of 5", html=True)  # the reference is read as a space: no token before the digit
    assert prepared.protected == ["&nbsp;", "1", "5"] and prepared.segments == ["Page XX0X of XX1X"]
    # nor does an item that stays apart: a link's start (joined, "[5" lost the link its start) or an emphasis mark
    prepared = prepare("See [5.2](#x) and **5th** items.", take_out_tags=True)
    assert prepared.protected == ["[", "5.2", "](#x)", "**", "**"] and prepared.segments == ["See XX0X and 5th items."]


def test_a_restructuredtext_fields_name_and_a_type_fields_line_are_kept_as_written():
    """Sphinx matches a docstring's field names to the signature: ":param data:" came back as ":param Daten:",
    ":param out:" as ":param:", ":rtype: requests.Response" as ":rtype: Anfragen.Antwort". A name in small letters
    with its argument is an item, a type field's line too; a capitalized field's name, a role and a label are not."""
    text = (":param url: URL for the new request.\n   :raises ValueError: if it is bad.\n:returns: A response.\n"
            "   :rtype: requests.Response\n:type url: str or None\n:Issue tracker: GitHub\nSee :func:`get`. Note: it.")
    assert protected_items(text) == sorted([":param url:", "   :raises ValueError:", ":returns:",
                                            "   :rtype: requests.Response", ":type url: str or None", ":func:`get`",
                                            "GitHub"])
    assert prepare(text).segments[:2] == ["XX0X URL for the new request.", "XX0X if it is bad."]


def test_a_restructuredtext_directive_is_kept_as_written_and_an_admonitions_text_translated():
    """Read, ".. image:: https://..." came back as ".. Bild: https://...", ".. code-block:: bash" as "..C-block:
    Bash". A directive's marker and name are an item, with the rest of its line where that is no text, and so is a
    hyperlink target's line; an admonition's or a version note's text is translated. A comment is words."""
    text = (".. image:: https://example.org/badge.svg\n   :target: https://example.org\n.. code-block:: bash\n"
            ".. _Jansson: http://www.digip.org/jansson/\n.. |logo| image:: logo.png\n"
            ".. py:function:: send(message, priority)")
    assert prepare(text).segments == []
    note = prepare(".. note:: This is deprecated.\n.. versionadded:: 3.0.0\n   Replaces the filter.")
    assert note.protected == [".. note::", ".. versionadded:: 3.0.0"]
    assert note.segments == ["XX0X This is deprecated.", "Replaces the filter."]
    assert prepare(".. this is a comment").segments == [".. this is a comment"]
    assert prepare("Use it.. note:: here").protected == []  # at a line's start only


def test_a_word_hyphenated_at_a_line_break_is_read_whole():
    """Text from a PDF or a manual page that nroff set hyphenates words at a line's end: read as two pieces, "the
    configu-\nration file" came back as "die Konfigurationsdatei\nDie Datei". The word is read whole (without its
    hyphen where the lexicon knows the word, with it otherwise), the line break moved after it, where it wraps the
    sentence and goes back into the translation; or before it, where the line goes on without a space."""
    wrapped = prepare("Please make sure that the documentation of the configu-\nration is up to date.")
    assert wrapped.segments == ["Please make sure that the documentation of the configuration\nis up to date."]
    assert wrapped.restore(["Bitte stellen Sie sicher, dass die Dokumentation der Konfiguration aktuell ist."]) == (
        "Bitte stellen Sie sicher, dass die Dokumentation der Konfiguration\naktuell ist.")
    assert prepare("It is a small but complete and entirely self-\ncontained unit.").segments == [
        "It is a small but complete and entirely self-contained\nunit."]
    assert dehyphenated("Read the docu-\nmentation.\nx = foo-\n    Bar") == (
        "Read the\ndocumentation.\nx = foo-\n    Bar", {8})  # and where the line break it moved is
    assert dehyphenated("both pre-\nand post-processing") == ("both pre-\nand post-processing", set())  # "pre- and"
    assert prepare("Please make sure that the documentation of the configu-\r\nration is up to date.").segments == [
        "Please make sure that the documentation of the configuration\r\nis up to date."]  # Windows' line ends
    assert prepare("Use the --dry-\nrun flag").segments == ["Use the XX0X-", "run flag"]  # an item's: as before
    # nroff's UTF-8 hyphen (U+2010), which the model cannot read ("transforma‐\ntion" came back "Transformationen‐")
    unknown = lambda text: [(m.start(), m.end()) for m in re.finditer("\u2010", text)]  # as the tokenizer says
    manual = prepare("       for the block sorting transforma\u2010\n       tion and the coder", unknown=unknown)
    assert manual.segments == ["for the block sorting transformation\n       and the coder"] and not manual.protected
    assert prepare("a well\u2010known name", unknown=unknown).protected == ["well\u2010known"]  # in a line: kept
    # the text after a joined word is shorter than it was; its numbers are still found in German ("about 2.5" stayed)
    joined = prepare("Files of less than about one hun-\ndred bytes grow, and a file of about 2.5 GB is\nread at around "
                     "0.5 GB a second.")
    assert joined.protected == ["about 2.5", "around 0.5"]
    assert "etwa 2,5 GB" in joined.restore(["Dateien von weniger als hundert Bytes wachsen, und eine Datei von XX0X GB "
                                            "wird mit XX1X GB pro Sekunde gelesen."])


def test_a_python_traceback_is_kept_as_written():
    """A traceback a bug report quotes is a program's output: "Traceback (most recent call last):" came back as
    "Rückruf (jüngstes Aufruf zuletzt):", a frame's code line "return f(x, None," as "Rückgabe f(x, Keine,". The
    heading, the frames with their code and the exception's line are one item; the words around it are translated,
    and so are the words after a heading without frames or exception line."""
    text = ("It fails:\n\nTraceback (most recent call last):\n  File \"/usr/lib/python3.11/runpy.py\", line 198, in "
            "_run_module_as_main\n    return _run_code(code, main_globals, None,\n  File \"app.py\", line 12, in "
            "<module>\n    main()\n    ^^^^^^\nValueError: invalid literal for int() with base 10: 'abc'\n\nHow do I "
            "fix it?\n\n>>> int('x')\nTraceback (most recent call last):\n  ...\nValueError: bad\n\nDone.")
    traceback = text[text.index("Traceback"):text.index("\n\nHow")]
    doctest = text[text.index(">>>"):text.index("\n\nDone")]  # a doctest's session: its interpreter's line too
    prepared = prepare(text)
    assert prepared.protected == [traceback, doctest]
    assert prepared.segments == ["It fails:", "How do I fix it?", "Done."]


def test_a_stack_trace_of_java_dotnet_or_javascript_is_kept_as_written():
    """A support e-mail's Java trace came back as 'Ausnahme im Thread "main" ...', "bei com.example.App.main(...)".
    The exception's line with its frames, causes and elisions is one item; not a line of words that starts with "at"
    under a heading that names no exception or whose "at" is prose."""
    java = ('Exception in thread "main" java.lang.IllegalStateException: Boom\n\tat a.B.c(B.java:1) ~[app.jar:?]\n'
            "Caused by: java.io.IOException: disk full\n\tat x.Y.z(Native Method)\n\t... 5 more")
    node = ("TypeError: Cannot read properties of undefined (reading 'x')\n    at foo (/app/index.js:10:5)\n"
            "    at /app/index.js:3:7\n    at new Promise (<anonymous>)")
    dotnet = "Unhandled exception. System.IO.IOException: Disk full.\n   at App.Program.Main() in C:\\App.cs:line 12"
    prepared = prepare(f"It fails:\n\n{java}\n\nAnd:\n\n{node}\n\n{dotnet}\n\nHelp.")
    assert prepared.protected == [java, node, dotnet] and prepared.segments == ["It fails:", "And:", "Help."]
    for prose in ("Error: it failed\n  at least twice (maybe).", "Note: the shop opens\n  at the top (left)."):
        assert prepare(prose).protected == []


def test_a_doctests_session_is_kept_as_written():
    """A docstring's examples: read, only the ">>>" lines were kept, the values printed came back as words
    ("[False,  True]]" as "[False,  Wahr]", "Product(i*j**2, (i, a, b))" a ")" short), and printed "key=value" lines
    made the text a configuration file's (">>> import numpy.ma as ma" came back as ">>> numpy.ma als Maus
    importieren"). The interpreter's lines, their continuations and what they printed, to a blank line, are one item;
    an e-mail quoted at three levels is read."""
    session = (">>> import numpy.ma as ma\n>>> x = ma.arange(4).reshape((2,2))\n>>> x\nmasked_array(\n"
               "  data=[[0, 1],\n        [2, --]],\n  mask=[[False, False],\n        [False,  True]],\n"
               "  fill_value=999999)")
    prepared = prepare(f"Examples\n--------\n{session}\n\nThe mask is kept.")
    assert prepared.protected == [session] and prepared.segments == ["Examples", "The mask is kept."]
    comments = "    >>> # Remove the named result\n    >>> # (note that it stays in the list)\n    ...     pass"
    assert prepare(comments).protected == [comments]
    assert prepare(">>> print([i for i in range(3)])\n[0, 1, 2]").segments == []
    statement = ">>> for line in unified_diff('one two'.split(),\n...     'zero one'.split()):\n...     print(line)"
    assert prepare(statement).protected == [statement]  # "for line in" opens no line of Python alone
    assert prepare(">>> I think we should go there\n>>> and do it now, as we said").segments  # an e-mail's quotation
    assert prepare(">>>%s<<< Conversion program").segments == [">>>XX0X<<< Conversion program"]  # no interpreter


def test_a_programs_log_line_is_kept_as_written():
    """A log line a bug report quotes, from its timestamp and level or syslog's to its end, is one item: "ERROR [main]"
    came back as "FEHLER [Min]", "[worker-2]" as "[Zertifikat:2]". Not a line that starts with a date and time alone,
    nor a level word inside a sentence."""
    logs = ["2024-05-01 12:00:03,114 ERROR [main] Connection refused (errno=111)",
            "[2024-05-01T12:00:04Z] WARNING: Retrying in 5 seconds",
            "Dec  3 14:02:11 host sshd[1234]: Failed password for invalid user admin from 10.0.0.5 port 22 ssh2"]
    prepared = prepare("The logs show:\n\n" + "\n".join(logs) + "\n\nAny idea? 2024-05-01 12:00:03 ERROR here.")
    assert prepared.protected[:3] == logs
    assert prepared.segments[0] == "The logs show:" and prepared.segments[1:3] == ["Any idea?", "XX0X ERROR here."]
    assert prepare("2024-05-01 12:00:03 Meeting with the team").segments == ["XX0X Meeting with the team"]
    indented = "           Apr 09 14:40:30 laptop login[2325]: LOGIN ON tty3 BY fatima"  # a manual page's example
    assert prepare(indented).protected == [indented]


def test_a_docstrings_parameter_with_its_type_is_kept_as_written():
    """A docstring's parameter and its type, Google's style and numpy's, are code the signature names: "func
    (function)" came back as "lustig (Funktion)", "q (torch.Tensor)" as "q (Fackel)". One item each, as written, the
    description translated; not words in parentheses before a colon ("unlink (temporary file):"), a capitalized
    word's, nor a numpy-like line whose next line is not indented."""
    text = ("Args:\n    q (`torch.Tensor`): The query tensor.\n    **kwargs (dict, optional): More options.\n"
            "    nodes (List[Node]): The nodes.\n\nParameters\n----------\nlocation : Vector\n    Where it is.\n"
            "max_iter, tol : int, optional\n    Maximum number of iterations.\npoint : (float, float)\n    The point."
            "\n\nNote (int or str):\nunlink (temporary file): failed\nsize : int\nThe end.")
    assert protected_items(text) == sorted(["    q (`torch.Tensor`):", "    **kwargs (dict, optional):",
                                            "    nodes (List[Node]):", "location : Vector",
                                            "max_iter, tol : int, optional", "point : (float, float)"])
    assert prepare(text).segments[:6] == ["Args:", "XX0X The query tensor.", "XX0X More options.", "XX0X The nodes.",
                                          "Parameters", "Where it is."]


def test_restructuredtext_inline_markup_is_kept_and_a_hyperlinks_text_translated():
    """Sphinx's inline markup: "``r``" came back as "`r`" and two on a line lost the marks between them; a role, a
    reference to a target, footnote or substitution by its name stay as written (the name must stay the target's); a
    hyperlink's "`" and " <target>`_" are a link's tags, around words the model translates. GNU's `quotes' and
    Markdown's double-backtick code spans are read as before and as code."""
    for text, segments, items in (
            ("pass ``key1=value1`` and ``key2`` to ``get``", ["pass XX0X and XX1X to XX2X"],
             ["``key1=value1``", "``key2``", "``get``"]),
            ("a :class:`Response <requests.Response>` object", ["a XX0X object"], [":class:`Response <requests.Response>`"]),
            ("See `Flask`_, [1]_, |version| and requests-oauthlib_.", ["See XX0X, XX1X, XX2X and XX3X."],
             ["`Flask`_", "[1]_", "|version|", "requests-oauthlib_"]),
            ("Read `the docs <https://example.org/>`_ first.", ["Read XX0Xthe docsXX1X first."],
             ["`", " <https://example.org/>`_"]),
            ("Overwrite `%s' now?", ["Overwrite XX0X now?"], ["`%s'"]),
            ("Markdown's ``DataFrame``s and `code`", ["Markdown's XX0Xs and XX1X"], ["``DataFrame``", "`code`"]),
            # a literal a paragraph wraps (read, its marks were lost), not across a blank line
            ("skip them with ``git commit\n--no-verify``.", ["skip them with XX0X."], ["``git commit\n--no-verify``"]),
            ("a ``b\n\nc`` d", ["a ``b", "c`` d"], []),
            # literals glued to variables of a letter or number are one word (read, "*``u``*" came back); a word in
            # emphasis between them is read ("*package*" is "*Paket*" in the German reference)
            ("use ``+deb``\\ *X*\\ ``u``\\ *Y* or *123*\\ ``@bugs.debian.org``", ["use XX0X or XX1X"],
             ["``+deb``\\ *X*\\ ``u``\\ *Y*", "*123*\\ ``@bugs.debian.org``"]),
            ("see ``/usr/share/doc/``\\ *package*\\ ``/NEWS``", ["see XX0X\\ *package*\\ XX1X"],
             ["``/usr/share/doc/``", "``/NEWS``"])):
        prepared = prepare(text)
        assert (prepared.segments, prepared.protected) == (segments, items), text
    linked = prepare("Read `the docs <https://example.org/>`_ first.", take_out_tags=True)
    assert linked.segments == ["Read the docs first."] and linked.moved[0][0].start == 5
    # a cross reference's own text is words, a text of its own (kept whole, the 31 of Flask's and Requests' pages
    # stayed English inside German sentences: ":doc:`app context </appcontext>`"); written back, a "`" or "<" of the
    # translation cannot end the role or start a target
    crossed = prepare("This needs an :doc:`app context </appcontext>` and :ref:`install`.")
    assert crossed.segments == ["This needs an XX0X and XX1X.", "app context"]
    assert crossed.restore(["Das braucht einen XX0X und XX1X.", "Anwendungs`kontext <x>"]) == (
        r"Das braucht einen :doc:`Anwendungs\`kontext \<x> </appcontext>` und :ref:`install`.")
    # a link wrapped over two lines, as 79-column pages wrap them (reST's 5 of 147 in Requests' and Flask's pages; this
    # is Flask's): its tags taken out, put back around words
    for start, end in (("`Sentry", "\n<https://sentry.io/>`_"), ("`Sentry\nserver", " <https://sentry.io/>`_"),
                       ("[Sentry\nserver", "](https://sentry.io/)")):
        page = ("Sending error mails, even if just for critical ones, can become\noverwhelming if enough users are "
                "hitting the error and log files are\ntypically never looked at. This is why we recommend using "
                f"{start}{end} for dealing with application errors. It's\navailable as a source-available project.")
        wrapped = prepare(page, take_out_tags=True)
        assert wrapped.protected == [start[0], end] and not any("XX" in segment for segment in wrapped.segments)
    for text in ("| house | dog |", "|Yes|No|", "Use __init__ and a | b | c."):
        assert prepare(text).protected == ["__init__"] * ("__" in text), text


def test_a_one_character_or_named_key_is_kept_whole_in_its_kbd_element():
    """mdBook's help: "Press <kbd>S</kbd> or <kbd>/</kbd> to search" came back as "Drücken Sie drücken <kbd>oder</kbd>
    <kbd>/</kbd>", the key lost, and "<kbd>Enter</kbd>" as "<kbd>Entter</kbd>". A <kbd> of one character or a named
    key is one item in its German name ("Strg", "Eingabetaste"); a <kbd> of words keeps its tags."""
    prepared = prepare("<p>Press <kbd>S</kbd> or <kbd>/</kbd> to search, <kbd>Esc</kbd> to hide.</p>", html=True,
                       take_out_tags=True)
    assert prepared.protected == ["<p>", "<kbd>S</kbd>", "<kbd>/</kbd>", "<kbd>Esc</kbd>", "</p>"]
    assert prepared.segments == ["Press XX0X or XX1X to search, XX2X to hide."]
    keys = prepare("Press <kbd>Ctrl</kbd>+<kbd>ENTER</kbd> or <kbd>CTRL</kbd>, not <kbd>Page Up</kbd>.")
    assert keys.segments == ["Press XX0X+XX1X or XX2X, not XX3XPage UpXX4X."]
    assert keys.restore(keys.segments) == (
        "Press <kbd>Strg</kbd>+<kbd>EINGABETASTE</kbd> or <kbd>STRG</kbd>, not <kbd>Page Up</kbd>.")


def test_gnome_helps_keys_commands_and_links_keep_their_words_and_nesting():
    """GNOME's help (Mallard): "<keyseq><key>Ctrl</key><key>H</key></keyseq>" came back with "<key>Hals</key>",
    "<cmd>lshw -C network</cmd>" as "<cmd>lshw -C Netzwerk</cmd>", and "<gui><link href=...>Sign in</link></gui>"
    with its end tags crossed ("</gui> </link>"): <link> was read as HTML's void element. A key's element is one item
    in its German name, as German manuals write it; <cmd> and <sys> are code, and so is a program's name of one word in
    small letters ("<app>gedit</app>" came back as "<app>geditieren</app>") or with a word that is no English the
    training data writes ("<app>LibreOffice Writer</app>" as "LibreOffice-Schreiber"); a link without rel has
    content."""
    keys = prepare("Press <keyseq><key>Ctrl</key><key>Shift</key><key>H</key></keyseq>, then <key>Enter</key> or "
                   "<keycap>Tab</keycap>.", html=True)
    assert keys.segments == ["Press XX0X, then XX1X or XX2X."]
    assert keys.restore(keys.segments) == ("Press <keyseq><key>Strg</key><key>Umschalttaste</key><key>H</key>"
                                           "</keyseq>, then <key>Eingabetaste</key> or <keycap>Tabulator</keycap>.")
    code = prepare("Run <cmd>lshw -C network</cmd> as <sys>root</sys> in <app>gedit</app> or <app>LibreOffice "
                   "Writer</app>, not <app>Files</app> or the <app>document viewer</app>.", html=True,
                   take_out_tags=True)
    assert code.protected[:4] == ["<cmd>lshw -C network</cmd>", "<sys>root</sys>", "<app>gedit</app>",
                                  "<app>LibreOffice Writer</app>"]
    assert code.segments[0] == "Run XX0X as XX1X in XX2X or XX3X, not Files or the document viewer."
    # nested, each is read to its first tag only (a child process: a regression fails instead of hanging the suite)
    import subprocess
    import sys

    script = ("from translator.text import untranslatable_elements\n"
              "untranslatable_elements('<app>Writer ' * 60_000 + '</app>' * 60_000)\n")
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
    link = prepare('Click the <gui><link href="https://x.org/in">Sign in</link></gui> button.', html=True,
                   take_out_tags=True)
    assert link.segments == ["Click the Sign in button."]
    assert sorted((m.before, m.after, link.segments[0][m.start:m.end]) for m in link.moved[0]) == [
        (0, 3, "Sign in"), (1, 2, "Sign in")]
    head = prepare('<link rel="stylesheet" href="a.css"><p>Open the file.</p>', html=True, take_out_tags=True)
    assert head.segments == ["Open the file."]


def test_docbooks_code_and_xml_entities_are_kept_as_written():
    """KDE's manuals (DocBook): "<command>unrar</command>" and "<literal>zip</literal>" came back translated or lost,
    and an entity whose name has a dot was read as "&XX0X;" and came back as "&Ragnar.Thomsen aktualisiert;", no
    longer XML. A reference's name is XML's (HTML's "&frac12;" is read as its character, as "&amp;" is). A command
    in DocBook's web pages is code too."""
    text = ("Updated by &Ragnar.Thomsen; &Ragnar.Thomsen.mail;: run <command>unrar</command> on <literal>zip</literal> "
            "files with &my-tool; and &frac12; of them.")
    prepared = prepare(text, html=True)
    assert prepared.protected == ["&Ragnar.Thomsen;", "&Ragnar.Thomsen.mail;", "<command>unrar</command>",
                                  "<literal>zip</literal>", "&my-tool;", "&frac12;"]
    assert prepared.segments == ["Updated by XX0X XX1X: run XX2X on XX3X files with XX4X and ½ of them."]
    assert prepared.restore(prepared.segments) == text
    # and a command in small letters as DocBook's web pages show it (the Debian New Maintainers' Guide's "debuild"
    # came back as "Debuild", "aptitude" as "einen"); not one from a capital, a menu's in GIMP's help ("Save")
    page = prepare('Run <span class="command"><strong>debuild</strong></span>, <span class="command">make '
                   'validate-en</span> or <span class="command"><strong>Save</strong></span>.', html=True)
    assert page.protected[:2] == ['<span class="command"><strong>debuild</strong></span>',
                                  '<span class="command">make validate-en</span>']
    assert page.segments == ["Run XX0X, XX1X or XX2XSaveXX3X."]


def test_a_files_path_or_name_and_a_quoted_value_are_kept_and_a_folders_word_is_translated():
    """GNOME's help (Mallard's <file>) and DocBook's <filename>: "<file>/etc/dconf/profile/</file>", its tags taken
    out, came back as "<file>angeben</file>, /etc/dconf/profile/", ".local" as ".lokale", a path's "<var>kiosk-user
    </var>" as "<var>Kosk-user</var>". A path, a dot file or a file's name is code; a folder's name shown as a word
    ("Trash", which German writes "Papierkorb") and a variable's name before an extension are read."""
    text = ("Edit <file>/etc/dconf/profile/</file>, <file>.local</file>, <filename>mimeapps.list</filename> and "
            "<file>/home/<var>username</var>/.config</file>, not the <file>Trash</file> or <file><var>name</var>.xml"
            "</file>.")
    prepared = prepare(text, html=True)
    assert prepared.protected[:4] == ["<file>/etc/dconf/profile/</file>", "<file>.local</file>",
                                      "<filename>mimeapps.list</filename>",
                                      "<file>/home/<var>username</var>/.config</file>"]
    assert "Trash" in prepared.segments[0] and "name" in prepared.segments[0]
    assert prepared.restore(prepared.segments) == text
    # and so a quoted value (DocBook's <quote>): the installation guide's "<quote>---</quote>" came back as "--",
    # "<quote>netinst</quote>" as "<quote>Namen</quote>"; not a quoted word or words of English
    quoted = prepare("Type <quote>---</quote>, <quote>netinst</quote> or <quote>preseed/url</quote>, then choose "
                     "<quote>Graphical install</quote> or <quote>red</quote>.", html=True)
    assert quoted.protected[:3] == ["<quote>---</quote>", "<quote>netinst</quote>", "<quote>preseed/url</quote>"]
    assert "Graphical install" in quoted.segments[0] and "red" in quoted.segments[0]
    # nested, each is read to its first slash only (read to its end tag, 20,000 took 14.6 s; in a child process, so
    # that a regression fails here instead of hanging the suite)
    import subprocess
    import sys

    script = ("from translator.text import untranslatable_elements\n"
              "assert len(untranslatable_elements('<file>/' * 60_000 + '</file>' * 60_000)) == 1\n")
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)


def test_a_gui_elements_label_is_translated_alone_and_cannot_be_dropped():
    """GNOME's help: "Click <gui>Accessibility</gui> in the sidebar", its tags taken out, came back as "Klicken Sie auf
    <gui>die</gui> Seitenleiste", the label dropped (67 of 2,797 paragraphs had an element around such a word). A
    label in Mallard's <gui> or DocBook's <guilabel>, <guibutton>, <guimenu>... is an item translated alone, as a
    quoted one is; not words in small letters ("system menu"), not an acronym alone ("FAT"). An <acronym> is kept."""
    text = ('Click <gui>Accessibility</gui> in the <guilabel>Date &amp; Time</guilabel> panel, not the '
            '<gui xref="menu">system menu</gui> or <gui>FAT</gui>.')
    prepared = prepare(text, html=True, take_out_tags=True)
    assert prepared.segments == ["Click XX0X in the XX1X panel, not the system menu or FAT.", "Accessibility",
                                 "Date & Time"]
    # as DocBook's web pages write them (GIMP's help), after a verb in any element (LibreOffice's help), and an acronym
    gimp = prepare('Set <span class="guilabel">Red</span>, then click <span class="emph">Open</span> to see '
                   '<acronym class="acronym">GIMP</acronym>.', html=True, take_out_tags=True)
    assert gimp.segments == ["Set XX0X, then click XX1X to see XX2X.", "Red", "Open"]
    assert gimp.protected[-1] == '<acronym class="acronym">GIMP</acronym>'
    field = prepare("Type it in the <guilabel>Look in:</guilabel> field.", html=True, take_out_tags=True)
    assert field.segments == ["Type it in the XX0X field.", "Look in:"]  # a field's label, its colon and all
    # a label after a verb that selects it, bounded by its element; inside a menu path it is the path's (unsorted
    # spans kept it twice, and the page came back with "Zellen formatierentieren - Zahlen/span>")
    chosen = prepare('Choose <span class="emph">Format Cells - Numbers</span>, select "Text", then select <span '
                     'class="emph">Append space</span>.', html=True, take_out_tags=True)
    assert chosen.segments == ["Choose XX0X, select XX1X, then select XX2X.", "Format Cells", "Numbers", "Text",
                               "Append space"]
    assert chosen.protected.count('<span class="emph">Format Cells - Numbers</span>') == 1
    prepared = prepare("Click <gui>Accessibility</gui> in the <guilabel>Date &amp; Time</guilabel> panel.", html=True)
    assert prepared.restore(["Klicken Sie im Bereich XX1X auf XX0X.", "Barrierefreiheit", "Datum & Uhrzeit"]) == (
        "Klicken Sie im Bereich <guilabel>Datum &amp; Uhrzeit</guilabel> auf <gui>Barrierefreiheit</gui>.")


def test_an_empty_anchor_or_icon_is_one_item():
    """Rust's release notes end a link's line with an anchor: '[...](https://...)<a id="1.95-Rustdoc"></a>' came back
    as '[...<a id="1.95-Rustdoc">](https://...)</a>', the anchor's tags put back inside the link around no word."""
    prepared = prepare('- [Add a setting](https://example.org/1)<a id="x"></a>', take_out_tags=True)
    assert prepared.protected == ["[", "](https://example.org/1)", '<a id="x"></a>']
    assert prepared.segments == ["Add a settingXX0X"]
    prepared = prepare('<p>Star <i class="fa fa-star"></i> it, <span></span> or <b></b>.</p>', html=True,
                       take_out_tags=True)
    assert '<i class="fa fa-star"></i>' in prepared.protected and "<span></span>" in prepared.protected
    assert "<b>" in prepared.protected  # an empty element of other names keeps its tags


def test_a_key_combination_is_an_item_with_ctrl_written_as_german_keyboards_name_it():
    """The model lost and repeated keys ("Ctrl+Shift+N" came back as "Strg+N", "Ctrl+Alt+?" as "Strg+Alt+Alt+?"): a
    combination is an item, its "Ctrl" written "Strg" as most German catalogs write it ("Caps Lock" "Feststelltaste"),
    every other key as written; in code, and in Python Markdown's "++ctrl+c++" (which the extension draws), nothing
    is renamed."""
    for text, segments, restored in (
            ("Similar Files (Ctrl+Shift+O)", ["Similar Files (XX0X)"], "Similar Files (Strg+Shift+O)"),
            ("Press Ctrl + C, then CTRL-ALT-DEL.", ["Press XX0X, then XX1X."], "Press Strg + C, then STRG-ALT-DEL."),
            ("Copy (ctrl-y) or Ctrl+C/Ctrl+V", ["Copy (XX0X) or XX1X"], "Copy (Strg-y) or Strg+C/Strg+V"),
            ("Run Project (Shift+Control+Space)", ["Run Project (XX0X)"], "Run Project (Shift+Strg+Space)"),
            ("Find (Ctrl+Alt+?) or Alt+F4", ["Find (XX0X) or XX1X"], "Find (Strg+Alt+?) or Alt+F4"),
            ("Type `Ctrl+C` or ++ctrl+c++ now", ["Type XX0X or XX1X now"], "Type `Ctrl+C` or ++ctrl+c++ now"),
            ("<kbd>Ctrl+S</kbd> saves", ["XX0X saves"], "<kbd>Strg+S</kbd> saves"),
            ("Ctrl+Shift+Alt+M", [], "Strg+Shift+Alt+M"),
            # xkeyboard-config's: the second "Ctrl" stayed English where Menu was no key
            ("Right Ctrl+Menu; Shift+CapsLock", ["Right XX0X; XX1X"], "Right Strg+Menu; Shift+Feststelltaste"),
            # modifiers alone, a layout's switch ("Control+Shift" came back as "Kontroll+Verschieben"), a lock key
            # (and Caps Lock as catalogs name it, 6 of 6 here: "Feststelltaste")
            ("Control+Shift, Alt+Ctrl or Alt+Caps Lock", ["XX0X, XX1X or XX2X"],
             "Strg+Shift, Alt+Strg or Alt+Feststelltaste")):
        prepared = prepare(text)
        assert prepared.segments == segments, text
        assert prepared.restore(prepared.segments) == restored
    for text in ("A win-win for Super-users, Alt-text and command-line options.", "C++ and C++ are alike.",
                 "Control-flow, Shift-click", "an Option-Command pair"):
        assert prepare(text).protected == [], text
    prepared = prepare("Press Ctrl+C to copy.", preserve_placeholders=False)
    assert prepared.restore(prepared.segments) == "Press Ctrl+C to copy."
    # nor in a page's code element, kept as written (the Ubuntu packaging guide's "<code>control-d</code>" came back
    # as "<code>Strg-d</code>"), nor a date's format there
    page = '<p>Type <code class="literal"><span class="pre">control-d</span></code> or Ctrl+D, <tt>YYYY-MM-DD</tt>.</p>'
    prepared = prepare(page, html=True)
    assert prepared.restore(prepared.segments) == page.replace("or Ctrl+D", "or Strg+D")


def test_a_key_of_one_mark_is_neither_a_tags_start_nor_part_of_a_reference():
    """LibreOffice's help writes 'Shift+<span class="switchinline">...': the "<" read as the combination's key, the
    tag reached the model as words and came back as '<spann-ID="..." Klasse="switchinline">'; "Ctrl+&lt;" lost its
    reference's end ("Strg+&lt drücken;")."""
    text = 'Use Shift+<span id="sw_37" class="switchinline">Ctrl</span>+T.'
    prepared = prepare(text, html=True)
    assert '<span id="sw_37" class="switchinline">' in prepared.protected
    assert prepared.restore(prepared.segments) == text
    for text, item in (("Press Ctrl+&lt; to zoom out.", "Ctrl+&lt;"), ("Press Ctrl+< to zoom out.", "Ctrl+<")):
        prepared = prepare(text, html=True)
        assert prepared.protected == [item]
        assert prepared.restore(prepared.segments) == text.replace("Ctrl", "Strg")


@pytest.mark.parametrize("text, html, segments", [
    ("She said “Really?” and laughed.", False, ["She said XX0XReally?XX1X and laughed."]),
    ("He asked &quot;Why?&quot; and left.", True, ['He asked "Why?" and left.']),
    ("She said &#8220;Stop!&#8221; and ran.", True, ["She said XX0XStop!XX1X and ran."]),
    ("She said “Really?” Then she laughed.", False, ["She said XX0XReally?XX1X", "Then she laughed."]),
    # a quotation mark inside another item ('1"'): the splitter reads none of them as marks (it read all up to the
    # next one as quoted, and the two sentences as one)
    ('By "\\1" in the <b>Find</b> box and "$1" here. The second by "\\2" and "$2".', True,
     ['By "\\XX0X" in the XX1XFindXX2X box and XX3X$XX4X here.', 'The second by "\\XX0X" and XX1X$XX2X.']),
])
def test_the_splitter_reads_a_quotation_marks_token_as_the_mark(text, html, segments):
    """The splitter keeps a quotation's end with its sentence, but not a token's: 'She said “Really?” and laughed.'
    (its marks items, as the model dropped them) reached the model as "She said “Really?”" and "and laughed."."""
    prepared = prepare(text, html=html)
    assert prepared.segments == segments
    assert len(prepared.restore(prepared.segments)) == len(text)  # (its quotation marks written as German's)


def test_marks_in_angle_brackets_are_a_placeholder_with_the_word_glued_to_them():
    """LibreOffice Math's placeholder "<?>", read as characters: "You can also type <?>csub<?> in the Commands
    window." came back as "Sie können auch eingeben?>KSub<?> ...". One item, with a word, braces or a call glued to
    it; a sentence's parentheses around it stay text."""
    for text, html, protected in (
            ("Type <?>csub<?> in the window.", False, ["<?>csub<?>"]),
            ("Type neg<?> or <?>lsup{<?>} or exp(<?>) here.", False, ["neg<?>", "<?>lsup{<?>}", "exp(<?>)"]),
            ("A value (<?>) appears.", False, ["<?>"]),
            ("Type &lt;?&gt;csub&lt;?&gt; in the window.", True, ["&lt;?&gt;csub&lt;?&gt;"])):
        prepared = prepare(text, html=html)
        assert prepared.protected == protected, text
        assert prepared.restore(prepared.segments) == text
    assert prepare("Use <b>bold</b> or <br> and a <-> b.").protected == ["<b>", "</b>", "<br>", "<->"]
    # in HTML, a tag or a usage placeholder written in references is what plain text's "<q>" is ("press &lt;q&gt; to
    # leave the pager" came back without it)
    prepared = prepare("Press &lt;q&gt; to leave, see the &lt;OPTION VALUE=1&gt; tag.", html=True)
    assert prepared.protected == ["&lt;q&gt;", "&lt;OPTION VALUE=1&gt;"]
    assert prepared.segments == ["Press XX0X to leave, see the XX1X tag."]


def test_a_dates_format_is_an_item_with_its_fields_in_germans_letters():
    """The model broke a date's format ("Use the format MM/DD/YYYY." came back as "... MM/DD/YYYYYYY ...", "Date
    (YYYY-MM-DD)" as "Datum (JYY-MM-DD)"): it is an item, its year and day written as German names them (Jahr, Tag)
    in the case it has, a time's letters and the marks as written; a pattern in both cases is a program's and stays
    as it is, and so does one in code."""
    for text, segments, restored in (
            ("Use the format MM/DD/YYYY.", ["Use the format XX0X."], "Use the format MM/TT/JJJJ."),
            ("Date of birth (dd.mm.yyyy)", ["Date of birth (XX0X)"], "Date of birth (tt.mm.jjjj)"),
            ("Expires (MM/YY)", ["Expires (XX0X)"], "Expires (MM/JJ)"),
            ("Format: YYYY-MM-DDTHH:MM:SS", ["Format: XX0X"], "Format: JJJJ-MM-TTTHH:MM:SS"),
            ("Enter 'DD/MM/YYYY hh:mm' or HH:MM", ["Enter XX0X or XX1X"], "Enter 'TT/MM/JJJJ hh:mm' or HH:MM"),
            ("The pattern yyyy-MM-dd is Java's.", ["The pattern XX0X is Java's."], "The pattern yyyy-MM-dd is Java's."),
            ("Run `date +%Y` or `YYYY-MM-DD`", ["Run XX0X or XX1X"], "Run `date +%Y` or `YYYY-MM-DD`")):
        prepared = prepare(text)
        assert prepared.segments == segments, text
        assert prepared.restore(prepared.segments) == restored, text
    for text in ("MM and DD-Dance", "Dr. M/D", "mm/s and km/h", "YY", "2024-05-01", "the DD/MMX code"):
        assert not any("M" in item or "m" in item for item in prepare(text).protected), text


def test_a_word_meeting_a_token_with_a_capital_x_is_an_item():
    """Beside a token an X reads as the token's own ("XX0XXXX1X"), and the model dropped it: the word on that side
    is kept as an item, whichever side of the token it meets, and a word that only has an X inside is translated."""
    for text, segments, items in (('Type "X" to quit.', ["Type XX0X to quit."], ['"X"']),
                                  ('Buy an "Xbox" now.', ["Buy an XX0X now."], ['"Xbox"']),
                                  ('See "Box X" here.', ["See XX0XBox XX1X here."], ['"', 'X"']),
                                  ("Move X%s now", ["Move XX0X now"], ["X%s"]),
                                  ('Watch "X-Files" now', ["Watch XX0X-FilesXX1X now"], ['"X', '"']),
                                  ('Set "MAXIMUM" to %d', ["Set XX0XMAXIMUMXX1X to XX2X"], ['"', '"', "%d"])):
        prepared = prepare(text)
        assert (prepared.segments, prepared.protected) == (segments, items)
        assert prepared.restore(prepared.segments) == text
    for text in ('"X"', "a X%s", "%sXa", "<b>Box X</b>", "Xa_b1X%s", "<i>X</i>"):
        for take_out_tags in (False, True):
            masked = re.sub(r"XX\d+X", "\0", " ".join(prepare(text, take_out_tags=take_out_tags).segments))
            assert "X\0" not in masked and "\0X" not in masked, (text, masked)
    assert prepare("See <b>Box X</b> here.", take_out_tags=True).segments == ["See Box XX0X here."]
    # after a verb that selects it, the bold words are a label, translated alone (SELECTED_ELEMENT)
    assert prepare("Select <b>Box X</b> here.", take_out_tags=True).segments == ["Select XX0X here.", "Box X"]
    # a word that ends in X before a token, spaces between, is one item with it ("ONNX 1.5" came back lost, "AIX 3.2"
    # as "AI 3.2", "JIS X 0201" as "JIS 0201"; of 30 catalog messages with references chrF 71.49 -> 73.02); one that
    # starts with X after a token is read ("Visio XML File Format" kept its hyphen: "XML-Dateiformat")
    for text, segments, items in (("Export it to ONNX 1.5 first.", ["Export it to XX0X first."], ["ONNX 1.5"]),
                                  ("Use JIS X 0201 Katakana", ["Use JIS XX0X Katakana"], ["X 0201"]),
                                  ("Like the X %s request.", ["Like the XX0X request."], ["X %s"]),
                                  ("Export %s XML files", ["Export XX0X XML files"], ["%s"])):
        prepared = prepare(text)
        assert (prepared.segments, prepared.protected) == (segments, items)
        assert prepared.restore(prepared.segments) == text


def test_where_a_sentence_is_cut_is_judged_on_what_the_model_reads():
    """A piece fits or not as the model would read it: escaped characters read as themselves and tokens numbered
    from XX0X, so the same sentence is cut the same escaped in a web page or after forty placeholders (measured
    masked, "don&#x27;t" and XX40X counted longer than "don't" and XX0X, and the shipped model's translations of
    such sentences changed with what came before them)."""
    import html

    sentence = "We don't know if it's ready, so we'll wait for %s and then we'll see."
    limit = len(sentence.replace("%s", "XX0X"))
    short = lambda s: len(s) <= limit  # noqa: E731
    assert prepare(sentence, short=short).segments == [sentence.replace("%s", "XX0X")]
    assert prepare(html.escape(sentence), html=True, short=short).segments == [sentence.replace("%s", "XX0X")]
    after = prepare("%d " * 40 + "\n" + sentence, short=short)
    assert after.segments == [sentence.replace("%s", "XX0X")]  # numbered per segment once cut


@pytest.fixture(scope="module")
def server(exported_tiny):
    running = RunningServer(config_for(exported_tiny, max_texts_per_request=16))
    yield running
    running.stop()


def translate_alone(client, sentence: str) -> str:
    return client.translate([sentence], max_output_tokens=12).translations[0].text


@pytest.mark.parametrize("count", [1, 2, 5, 10])
def test_a_paragraph_is_its_sentences_translated_once_in_order(server, count):
    chosen = [SENTENCES[i % len(SENTENCES)] for i in range(count)]
    paragraph = " ".join(chosen[:count // 2]) + ("\n" if count > 1 else "") + " ".join(chosen[count // 2:])
    with TranslatorClient(server.target) as client:
        response = client.translate([paragraph], max_output_tokens=12)
        alone = [translate_alone(client, s) for s in chosen]
    translation = response.translations[0]
    expected = " ".join(alone[:count // 2]) + ("\n" if count > 1 else "") + " ".join(alone[count // 2:])
    assert translation.text == expected and translation.segments == count


def test_streamed_pieces_concatenate_to_the_final_text_segment_after_segment(server):
    texts = ["Hello, %s! You have {count} new messages.\nLine two. Line three.", "One. Two.", "42",
             "I went to the market\nyesterday morning. The apples were cheap.",
             '"I will call you tonight," she said. He said: "we are here."']  # speech: written once whole
    with TranslatorClient(server.target) as client:
        whole = client.translate(texts, max_output_tokens=12)
        chunks = list(client.stream(texts, max_output_tokens=12))
    for index, translation in enumerate(whole.translations):
        mine = [c for c in chunks if c.index == index]
        assert "".join(c.text for c in mine) == translation.text == mine[-1].final.text
        assert sum(1 for c in mine if c.HasField("final")) == 1
    assert whole.translations[2].text == "42" and whole.translations[2].segments == 0
    assert whole.translations[0].text.count("%s") == 1 and whole.translations[0].text.count("{count}") == 1


# The tiny model's tokens as it ranks them: with repeats suppressed, the garbage it writes instead of a loop spells what
# the checks of protected items read as codes ("115959TT5959ss5959TT77ee").
AS_RANKED = pb.DecodingOptions(suppress_repeats=False)


def test_placeholders_survive_every_rpc_and_repairs_are_counted(server):
    text = "Hello, %s! You have {count} new messages at <b>https://example.org</b>."
    with TranslatorClient(server.target) as client:
        unary = client.translate([text], suppress_repeats=False).translations[0]
        batch = list(client.batch([pb.BatchItem(id="1", text=text, options=AS_RANKED)]))[0].translation
        off = client.translate([text], preserve_placeholders=False).translations[0]
    for translation in (unary, batch):
        assert protected_items(translation.text) == protected_items(text)
        assert [t.group(0) for t in TAG.finditer(translation.text)] == ["<b>", "</b>"]
    assert off.segments == 2  # "Hello, %s!" and the rest
    repairs = server.server.metrics.registry.get_sample_value("translator_placeholder_repairs_total", {"model": "tiny"})
    segments = server.server.metrics.registry.get_sample_value("translator_text_segments_count", {"model": "tiny"})
    assert repairs is not None and repairs > 0 and segments >= 3


def test_characters_the_model_cannot_read_come_back_unchanged_from_every_rpc(server):
    zalgo = "e" + "\u0301\u0300\u0302\u0303\u0304" * 10
    texts = ["Where is the station? 😀 I went — 你好 — to the market.", "你好！", "He crossed the street 🚀",
             f"I\x01 went\x7f to the market\u2028{zalgo} and home."]
    with TranslatorClient(server.target) as client:
        unary = list(client.translate(texts).translations)
        chunks = list(client.stream(texts))
        batch = sorted(client.batch([pb.BatchItem(id=str(i), text=t) for i, t in enumerate(texts)]), key=lambda r: r.id)
    for index, text in enumerate(texts):
        streamed = "".join(c.text for c in chunks if c.index == index)
        for translation in (unary[index].text, streamed, batch[index].translation.text):
            assert "⁇" not in translation
            for item in ("😀", "—", "你好", "🚀", "\x01", "\x7f", "\u2028", zalgo):
                assert translation.count(item) == text.count(item), (item, translation)
    assert unary[1].text == "你好！" and unary[1].segments == 0


def test_text_that_looks_like_placeholder_tokens_round_trips_without_placeholders():
    """Without placeholders, "XX3X" in a text beside a character the model cannot read was taken for the token of
    item 3 (IndexError); it is an item of its own, as with placeholders."""
    prepared = prepare("house XX3X 😀 and XX0X", preserve_placeholders=False, unknown=unknown_runs)
    assert prepared.protected == ["XX3X 😀", "XX0X"] and prepared.segments == ["house XX0X and XX1X"]
    assert prepared.restore(["XX1X XX0X"]) == "XX0X XX3X 😀"
    assert prepare("<b>XX1</b> 😀", preserve_placeholders=False, html=True, unknown=unknown_runs).protected == \
        ["<b>XX1</b> 😀"]


def test_an_unknown_text_format_is_invalid_argument(server):
    with TranslatorClient(server.target) as client:
        with pytest.raises(grpc.RpcError) as error:
            client.stub.Translate(pb.TranslateRequest(texts=["a"], options=pb.DecodingOptions(text_format=7)))
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "text_format" in error.value.details()


def test_placeholder_benchmark_reads_the_held_out_split(exported_tiny, tmp_path):
    from bench import placeholders
    from service.decoding import DecodingOptions
    from service.translator import Translator

    split = tmp_path / "test.unmasked.tsv"
    split.write_text("Open %s in {folder} 😀\tÖffne %s in {folder} 😀\tsoftware\nNothing to protect here\tNichts\tsoftware\n"
                     "Hi %d\tHallo %d\tsoftware\n")
    pairs = placeholders.messages(split, limit=10)
    assert pairs == [("Open %s in {folder} 😀", "Öffne %s in {folder} 😀")]  # something to protect, ≥ 10 characters
    results = placeholders.run(Translator(exported_tiny), pairs, split, DecodingOptions(suppress_repeats=False))
    assert results["messages"] == 1 and results["items_exact"] == 1.0 and results["source"] == str(split)
    assert results["with_unknown_characters"] == 1.0 and 0 <= results["chrf"] <= 100
    assert results["as_alone_in_texts"] == 1.0 and "lines of texts of 5 100.0%" in placeholders.report(results)
    assert results["examples"][0]["reference"] == "Öffne %s in {folder} 😀"


def test_tag_benchmark_compares_both_ways_on_a_split(exported_tiny, tmp_path):
    from bench import tags
    from service.translator import Translator

    split, entries = tmp_path / "test.tsv", tmp_path / "train.tsv"
    split.write_text("Where is the main station?\tWo ist der Hauptbahnhof?\texample\nHi\tHallo\texample\n")
    entries.write_text("station\tBahnhof\tentry\nmain station\tHauptbahnhof\tentry\n")
    pairs = tags.sentences(split, limit=10)
    assert pairs == [("Where is the main station?", "Wo ist der Hauptbahnhof?")]  # 4-20 words only
    assert tags.dictionary(entries) == {"station": {"bahnhof"}}  # one word on each side
    translator = Translator(exported_tiny)
    results = tags.run(translator, pairs, split, {"station": {translator.translate(["Where"])[0].lower()}})
    assert results["sentences"] == 1 and results["taken_out"]["tags_kept_and_nested"] == 1.0
    assert results["taken_out"]["words_as_untagged"] == 1.0 and 0 <= results["as_tokens"]["chrf"] <= 100
    assert "taken out, put back by alignment" in tags.report(results)


def test_input_benchmark_measures_escaped_text_numbers_quotations_and_capitals(exported_tiny, tmp_path):
    from bench import inputs
    from bench.placeholders import pairs_of
    from service.translator import Translator

    split = tmp_path / "test.tsv"
    split.write_text("Where's the station?\tWo ist der Bahnhof?\texample\nHi\tHallo\texample\n"
                     "Open 3 files now\tÖffne jetzt 3 Dateien\texample\n")
    chosen = inputs.cases(pairs_of(split), [("Delete 2 items?", "2 Elemente löschen?"), ("A\nB", "A\nB"),
                                            ("Cannot open “%s”", "Kann „%s“ nicht öffnen")], 10)
    assert chosen["escaped"] == [("Where's the station?", "Wo ist der Bahnhof?")]
    assert sorted(chosen["numbers"]) == [("Delete 2 items?", "2 Elemente löschen?"),
                                         ("Open 3 files now", "Öffne jetzt 3 Dateien")]
    assert ("Hi", "Hallo") not in chosen["capitals"] and ("Delete 2 items?", "2 Elemente löschen?") not in chosen["capitals"]
    results = inputs.run(Translator(exported_tiny), chosen)
    assert results["escaped"]["sentences"] == 1 and results["numbers"]["numbers_kept_by_references"] == 1.0
    assert results["capitals"]["sentences"] == len(chosen["capitals"]) == 2 and 0 <= results["capitals"]["chrf"] <= 100
    assert chosen["quotations"] == [("Cannot open “%s”", "Kann „%s“ nicht öffnen")]  # "Where's": an apostrophe
    assert results["quotations"]["kept"] == 1.0  # the marks are items
    assert "in capitals" in inputs.report(results) and "with a quotation: as many" in inputs.report(results)


def test_a_broken_token_is_mended_where_the_model_wrote_it():
    """"application_name=%s" (its "_" unknown to the model) came back as "AnwendungX0Xname=%s _": the broken token
    stands for the item where it is, when the source has no "XX" of its own. Where the token is there intact, the
    broken one is dropped ('You need to start by "git bisect start"' came back as '... startenX1X')."""
    from translator.text import Repaired, repair

    assert repair("AnwendungX0Xname=XX1X", [0, 1], [False, False], stray_x=True) == Repaired("AnwendungXX0Xname=XX1X", 1)
    assert repair("Start XX0 mit XX1X", [0, 1], [False, False], stray_x=True) == Repaired("Start XX0X mit XX1X", 1)
    assert repair("X0X und XX0X", [0], [False], stray_x=True) == Repaired("und XX0X", 1)  # there intact: dropped
    # a whole token right after it: a tag put back after the word it ended ('<a>ronag</a><span> - </span>Robert'
    # came back as '<a>ronagX0X</a> - <span>Robert</span>')
    assert repair("XX3XronagX0XXX4X - XX1XXX2X", [3, 4, 0, 1, 2], [True] * 4 + [False], stray_x=True) == \
        Repaired("XX3XronagXX4XXX0X - XX1XXX2X", 2)  # mended, and the tags in the source's order
    assert repair("XX3XronagX0XXX4X und XX0X", [3, 4, 0], [False] * 3, stray_x=True).text == "XX3XronagXX4X und XX0X"
    quotes = lambda s: [m.span() for m in re.finditer('"', s)]  # noqa: E731
    assert prepare('Start by "Git"', unknown=quotes).restore(['Mit XX0XGitXX1X startenX1X']) == 'Mit "Git" starten'
    assert prepare('See X1X, "Now"', unknown=quotes).restore(['Siehe X1X, XX0XJetztXX1X']) == \
        'Siehe X1X, "Jetzt"'  # its own (before a token with a space between it is the token's item: `x_words`)
    assert repair("AnwendungX0Xname", [0], [False]).text == "AnwendungX0Xname XX0X"  # the source has "XX": unsure
    # An X the model wrote after a digit, as a token ends: 'databases "postgres" or "template1"' came back with
    # "template1X", "failed to zero a record" as "0X ist fehlgeschlagen", "setsockopt(%d,IPV6_V6ONLY,1)" with "1X)"
    # ("template1" is a code now, kept whole: a shorter name shows it)
    assert prepare('or "Db1" now', unknown=quotes).restore(['oder XX0XDb1X jetzt XX1X']) == 'oder "Db1 jetzt"'
    assert repair("XX0X: 0X ist fehlgeschlagen: XX12X", [0, 12], [False, False], stray_x=True) == \
        Repaired("XX0X: 0 ist fehlgeschlagen: XX12X", 1)
    assert prepare("Zoom 4X %s").restore(["Zoom XX0X"]) == "Zoom 4X %s"  # the source's own "4X" stays (with its item)
    assert prepare("Zoom 4X, %s").restore(["Zoom 4X, XX0X"]) == "Zoom 4X, %s"


def test_repair_survives_model_output_that_glues_into_new_placeholders():
    """Whatever the model writes (stray "XX", digits, foreign or repeated tokens), each owned placeholder ends up
    exactly once, tags in source order, and no other placeholder token is left."""
    import random

    from translator.text import PLACEHOLDER_PATTERN, Repaired, repair

    rng = random.Random(0)
    alphabet = ["XX", "X", "1", "2", "3", "7", "12", " ", "Wort", "XX1X", "XX2X", "XX3X", "XX7X", "XX12X"]
    for _ in range(3000):
        output = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        owned = sorted(rng.sample([1, 2, 3], rng.randint(1, 3)))
        is_tag = [rng.random() < 0.5 for _ in owned]
        text = repair(output, owned, is_tag).text
        found = [int(m.group(1)) for m in PLACEHOLDER_PATTERN.finditer(text)]
        assert sorted(found) == owned, (output, owned, text)
        tags = [n for n, tag in zip(owned, is_tag) if tag]
        assert [n for n in found if n in tags] == tags, (output, owned, is_tag, text)
    assert repair("XXXX7X3X Text", [3], [True]).text.count("XX3X") == 1
    # Without "XX" in the source, runs of X outside the tokens are what is left of broken ones; a run right before a
    # token stays (a word may end in X: "TeX%s" is masked as "TeXXX0X")
    assert repair('von "XX0X" der XXXX1X."XXXX', [0, 1], [False, False], stray_x=True) == \
        Repaired('von "XX0X" der XXXX1X."', 1)
    assert repair("TeXXX0X", [0], [False], stray_x=True) == Repaired("TeXXX0X", 0)
    assert repair("XXL XX0X", [0], [False]) == Repaired("XXL XX0X", 0)  # the source's own "XX" stays
    # Adjacent tokens sharing an X are read as the two tokens, not as one and a stray "X8X"
    assert repair("Weiter: XX7XX8X fertig XX1XX2XX3X.", [1, 2, 3, 7, 8], [False] * 5) == \
        Repaired("Weiter: XX7XXX8X fertig XX1XXX2XXX3X.", 3)
    # A dropped repeat leaves no space at the sentence's end ("%s: %s kann nicht erstellt werden: " before)
    assert prepare("%s: cannot create: %s").restore(["XX0X: XX1X kann nicht erstellt werden: XX1X"]) == \
        "%s: %s kann nicht erstellt werden:"
    assert repair(" XX0X Datei  XX0X", [0], [False]) == Repaired("XX0X Datei", 1)
    # nor before a mark ("Es wurde XX0X Tage seit der letzten Sicherung XX0X." was "... Sicherung .")
    assert repair("Vor XX0X Tagen gesichert XX0X.", [0], [False]).text == "Vor XX0X Tagen gesichert."
    assert repair("mit XX0X, XX1X und XX0X, XX1X", [0, 1], [False] * 2).text == "mit XX0X, XX1X und,"


def test_a_token_the_model_lost_goes_back_before_the_marks_that_end_its_sentence():
    """Appended after them, "Rejecting impossible rule prerequisite '%s'." came back as "Ablehnbare Regel wird
    abgewiesen. '%s'"."""
    from translator.text import Repaired, repair

    assert prepare("Rejecting impossible rule prerequisite '%s'.").restore(["Ablehnbare Regel wird abgewiesen."]) == \
        "Ablehnbare Regel wird abgewiesen '%s'."
    assert repair('Ist das so?"', [0], [False]) == Repaired('Ist das so XX0X?"', 1)  # and the quote closing it
    assert repair("Datei öffnen", [0], [False]) == Repaired("Datei öffnen XX0X", 1)  # no mark: at the end
    assert repair("...", [0], [False]) == Repaired("... XX0X", 1)  # marks alone: after them
    # An operator stands alone ("&&." is none): the mark stays before it
    assert prepare("Use && or %s now.").restore(["Verwende oder jetzt."]) == "Verwende oder jetzt. && %s"


def whole_and_streamed(source: str, model_wrote: str, glossary=None) -> tuple[str, str]:
    """What the service makes of a one-segment text whose model wrote `model_wrote`: the whole translation and its
    stream's pieces joined (asserting that no piece sent goes later: the pieces so far are the start of the whole)."""
    from pathlib import Path

    from service.decoding import DecodingOptions, FinishReason, Hypothesis
    from service.scheduler import Request
    from service.texts import Texts
    from translator.model_format import Limits
    from translator.text import segment_texts
    from translator.tokenizer import Tokenizer

    tokenizer = Tokenizer.from_dir(Path(__file__).parent.parent / "model" / "default")
    texts = Texts(*segment_texts([source], tokenizer, Limits(256, 256, 24), glossary=glossary))
    ids = tokenizer.encode(model_wrote)
    request = Request("0", texts.sources[0], DecodingOptions())
    request.hypotheses = [Hypothesis(ids, FinishReason.EOS, [0.0] * (len(ids) + 1), 0.0)]
    request.finish_reason = FinishReason.EOS
    translation = texts.translation(0, request, tokenizer)
    whole = texts.merge(0, [translation]).text
    streamer = texts.streamer(tokenizer)
    sent = "".join(piece for token in ids for _, piece, _ in streamer.push(0, [token]))
    assert whole.startswith(sent), (source, sent)
    finished = streamer.finish(0, translation)
    assert finished[-1][2].text == whole
    return whole, sent + finished[-1][1]


def test_a_cut_dictionary_annotation_at_a_translations_end_goes_whole_and_streamed():
    """The model ends some single words with a dictionary annotation cut open ("pull" came back as "ziehen <v", from
    training pairs once cut inside "<v, intr>"). Where the segment has no "<" such an end goes, with the space before
    it, from the whole translation and the streamed pieces alike (the stream holds back what could start one until
    the next piece or the end decides); any other "<", and any where the source has one, stays."""
    for source, model_wrote, expected in [("pull", "ziehen <v", "ziehen"), ("harvestman", "Ernte <masc", "Ernte"),
                                          ("Pull it.", "Zieh <v es.", "Zieh <v es."),
                                          ("pull", "ziehen <= x", "ziehen <= x"), ("a < b", "a <b", "a <b")]:
        assert whole_and_streamed(source, model_wrote) == (expected, expected), source


def test_groups_in_parentheses_the_model_made_up_go_whole_and_streamed():
    """The model writes words in parentheses its segment has none of (learnt from catalogs that add the English
    term): each such group goes with the space before it, closed, cut open at the end or a lone ")" left, from the
    whole translation and the streamed pieces alike (a stream holds back a group it opened until it closes). One that
    holds an item stays, and so does every parenthesis where the segment has one."""
    for source, model_wrote, expected in [
            ("Set the label", "Beschriftung (Anzeige) festlegen", "Beschriftung festlegen"),
            ("Small tremors are precursors.", "Kleine Beben sind Vorboten (z.B.", "Kleine Beben sind Vorboten"),
            ("It is needed by GSettings.", "Es wird (GSettings) von (ihm benötigt).", "Es wird von."),
            ("Saved as %s", "Gespeichert (XX0X)", "Gespeichert (%s)"),
            ("Press 1) now", "Drücken Sie XX0X) jetzt (sofort)", "Drücken Sie 1) jetzt (sofort)")]:
        assert whole_and_streamed(source, model_wrote) == (expected, expected), source


def test_a_clause_after_a_comma_opens_in_small_letters_whole_and_streamed():
    """The model wrote a main clause after a subordinate one with a capital, as a sentence starts ("Wenn tmux gestartet
    wird, Es erzeugt ...", "In tmux, Eine Sitzung ..."): a word that opens a clause and is never a noun goes in small
    letters after a comma, in the whole translation and the stream alike (the stream holds a comma back with the word
    after it until the word ends: "Ein" may go on as "Einstellungen"). Not a noun, and not where the source has a
    capital after a comma itself (a name: "Die Zeit")."""
    for source, model_wrote, expected in [
            ("When tmux is started, it creates a session.", "Wenn tmux gestartet wird, Es erzeugt eine Sitzung.",
             "Wenn tmux gestartet wird, es erzeugt eine Sitzung."),
            ("If so, settings are kept.", "Wenn ja, Einstellungen bleiben, Die Werte auch.",
             "Wenn ja, Einstellungen bleiben, die Werte auch."),
            ("Yes, I know it.", "Ja, Ich weiß es.", "Ja, ich weiß es."),
            ("Yes, The Guide says so.", "Ja, Der Leitfaden sagt es.", "Ja, Der Leitfaden sagt es.")]:
        assert whole_and_streamed(source, model_wrote) == (expected, expected), source
    # a sentence cut at its comma for its length: its second part, translated alone, started as a sentence does
    # (GNOME's help: "When one or more Bluetooth devices are connected, the Bluetooth icon appears ...")
    cut = prepare("When the devices are connected, the icon appears in the area.", fits=lambda s: len(s) <= 40)
    assert cut.segments == ["When the devices are connected,", "the icon appears in the area."]
    assert cut.restore(["Wenn die Geräte verbunden sind,", "Das Symbol erscheint im Bereich."]) == (
        "Wenn die Geräte verbunden sind, das Symbol erscheint im Bereich.")
    assert prepare("Apples, pears.\nThe end.").restore(["Äpfel, Birnen.", "Das Ende."]) == "Äpfel, Birnen.\nDas Ende."


def test_a_code_the_model_misspelt_comes_back_as_read_whole_and_streamed():
    """The model wrote codes it read a letter off ("IEEE" came back as "IEEEE", "XUL" as "XULL", "--group=GROUP" as
    "--group=GROUPP") or in other capitals ("cb2Bib" as "Cb2Bib"): such a word in a code's place is the code, in the
    whole translation and the stream alike (a segment that reads a code streams whole). Not a German word in place of
    an English one ("LIST" translated "LISTE"), a word the source says itself, a word two letters off, nor one where
    the code is said as often as the source says it."""
    for source, model_wrote, expected in [
            ("Routines for IEEE floats.", "Routinen für IEEEE-Zahlen.", "Routinen für IEEE-Zahlen."),
            ("It uses the XUL toolkit.", "Es nutzt das XULL-Toolkit.", "Es nutzt das XUL-Toolkit."),
            ("Write it to STDERR now.", "Schreiben Sie es jetzt nach STDER.", "Schreiben Sie es jetzt nach STDERR."),
            ("It converts HP2XX files.", "Es wandelt HP2X-Dateien um.", "Es wandelt HP2XX-Dateien um."),
            ("Use cb2Bib for that.", "Verwenden Sie Cb2Bib dafür.", "Verwenden Sie cb2Bib dafür."),
            ("Set the GROUP of the file.", "Die GROUPP der Datei setzen.", "Die GROUP der Datei setzen."),
            ("Print the LIST of values.", "Die LISTE der Werte ausgeben.", "Die LISTE der Werte ausgeben."),
            ("It trains ANN models.", "Es trainiert ANNE-Modelle.", "Es trainiert ANN-Modelle."),  # no English word
            ("It reads DNA sequences.", "Es liest DNS-Sequenzen.", "Es liest DNA-Sequenzen."),
            ("Use DNA, not DNS.", "Verwenden Sie DNS, nicht DNS.", "Verwenden Sie DNS, nicht DNS."),
            ("It reads AES keys.", "Es liest AESSS-Schlüssel.", "Es liest AESSS-Schlüssel."),
            ("The IEEE format.", "Das IEEE-Format, nicht IEEEE.", "Das IEEE-Format, nicht IEEEE.")]:
        assert whole_and_streamed(source, model_wrote) == (expected, expected), source
    assert codes_as_read("Die XX1X-Bibliothek", "The XX1 library") == "Die XX1X-Bibliothek"  # a tag's token put back


def test_a_segment_the_model_translates_to_nothing_comes_back_as_written_whole_and_streamed():
    """The shipped model translated "a" alone to nothing (end of sentence first; a letter alone is no longer sent): a
    text must not lose a sentence, so such a segment stays as the source has it, in a whole translation and in the
    streamed pieces alike."""
    from pathlib import Path

    from service.texts import Texts
    from translator.model_format import Limits
    from translator.text import segment_texts
    from translator.tokenizer import Tokenizer

    assert prepare("Go. Caf&eacute;").restore(["Geh.", ""]) == "Geh. Caf&eacute;"
    tokenizer = Tokenizer.from_dir(Path(__file__).parent.parent / "model" / "default")
    texts = Texts(*segment_texts(["Go. Stop"], tokenizer, Limits(256, 256, 24)))
    streamer = texts.streamer(tokenizer)
    pieces = streamer.finish(0, pb.Translation(text="Geh.")) + streamer.finish(1, pb.Translation(text=""))
    assert "".join(piece for _, piece, _ in pieces) == pieces[-1][2].text == "Geh. Stop"


def test_a_word_or_compounds_part_the_model_said_twice_is_said_once():
    """The model lost its place and said a compound's part twice, with its ending or another, or a word twice in a
    row, where beams did too ("System monitor Widget that shows the CPU usage" came back as "Widget-Widget, das die
    CPU-Benutzung zeigt", "In the default install, ..." as "Installations-Installation wird ...", "but complicated to
    write" as "aber kompliziert kompliziert zu schreiben"): the part is said once, with the second's ending, and the
    word once, in a whole translation and in a streamed piece that holds both; not where the source says a word twice
    ("Baden-Baden", "very, very"), nor a longer word after a part ("Bild-Bildschirm"), nor a short word ("die die")."""
    prepared = prepare("System monitor Widget that shows the CPU usage")
    assert prepared.restore(["Widget-Widget, das die CPU-Benutzung-Benutzung zeigt"]) == (
        "Widget, das die CPU-Benutzung zeigt")
    assert prepared.written(0, "Installations-Installation wird, Paket-Paket-Pakets") == "Installation wird, Pakets"
    assert prepared.restore(["Bild-Bildschirm und Bild-Bilder"]) == "Bild-Bildschirm und Bilder"
    assert prepare("A trip to Baden-Baden").restore(["Eine Reise nach Baden-Baden"]) == "Eine Reise nach Baden-Baden"
    assert prepare("It is hard to write.").restore(["Es ist kompliziert kompliziert zu schreiben, auch auch."]) == (
        "Es ist kompliziert zu schreiben, auch.")
    assert prepare("Files that the app reads").restore(["Dateien, die die App liest"]) == "Dateien, die die App liest"
    assert prepare("It is very, very good.").restore(["Es ist sehr sehr gut."]) == "Es ist sehr sehr gut."


@pytest.mark.parametrize("source, model_wrote, expected", [
    ("It was his only incursion into the arts.", "Es war sein einzig einzige Anfall in die Kunst.",
     "Es war sein einzig einzige Anfall in die Kunst."),  # "einzig einzig" was a piece that said it once
    ("The images.", "Die Bild-Bilder sind da.", "Die Bilder sind da."),
    ("The widget shows it.", "Das Widget-Widgets zeigt es.", "Das Widgets zeigt es.")])
def test_a_stream_holds_a_word_that_may_become_a_copy_of_the_one_before(source, model_wrote, expected):
    """`_said_once` reads both copies in one piece: a stream holds the first while the second may still be one."""
    assert copy_at_end("sein einzig einz") == copy_at_end("sein einzig einzig") == len("sein ")
    assert copy_at_end("Das Widget-Wid") == len("Das ")
    assert copy_at_end("sein einzig einzigartig") is copy_at_end("ein weit weitgeh") is copy_at_end("A-B") is None
    assert whole_and_streamed(source, model_wrote) == (expected, expected)
