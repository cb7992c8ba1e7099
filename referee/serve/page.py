"""What one page of the table display shows, built on the server from one viewer's
:class:`~referee.viewing.Seen` in the page's language.

:func:`snapshot` returns the page's sections as HTML fragments (the board as inline SVG, whose
turn, the last rulings with their citations and disclosures, the dice and their commitment, a
bot's last operation step by step, and for a player their own secrets and moves) plus what to
read aloud; the stream sends it again whenever the game file changes. :func:`page` is the HTML
document around it. Everything is escaped here: no text from a game file reaches a page raw.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from referee.dice import Roll, fingerprint
from referee.disclosures import marker
from referee.game import BoardView
from referee.i18n import LANGUAGES, _
from referee.phrases import say
from referee.picture import view_scene
from referee.rulings import Ruling
from referee.scene import key_entries
from referee.svg import to_svg
from referee.viewing import Seen

LAST_RULINGS = 5
"""How many of the latest journal entries the page shows."""
MAX_LISTED = 12
"""Most actions a player's page lists without a tap (``start``, ``resolve``, ``done``...)."""
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "it": "Italiano"}


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def cites(rulings: Iterable[object]) -> str:
    """Returns "(V Mouvement; VI Combat)" for citations, in the active language."""
    items = [str(c) for c in rulings]
    return f"({'; '.join(items)})" if items else ""


def ruling_html(ruling: Ruling, kind: str = "event") -> str:
    """Returns one ruling as a list item: its sentence, its code, its citations."""
    return (f'<li class="{kind}">{_e(ruling.text())} <span class="code">[{_e(ruling.code)}]</span> '
            f'<span class="cite">{_e(cites(ruling.cites))}</span></li>')


def snapshot(seen: Seen, version: int, commitment: str, players: Sequence[str]) -> dict[str, object]:
    """Returns the page's content for one viewer: ``html`` sections by element id, the state hash
    a move from this page must find, whose input is awaited, and what to read aloud."""
    game = seen.game
    to_act = game.to_act(seen.state)
    html = {
        "turn": _turn(seen, to_act),
        "board": _board(seen),
        "rulings": _rulings(seen),
        "dice": _dice(seen, commitment) if game.info.chance else "",
        "bot": _bot(seen),
    }
    if seen.viewer is not None:
        html["secrets"] = _secrets(seen) if game.info.information == "imperfect" else ""
        html["actions"] = _actions(seen, to_act, players)
    return {"version": version, "hash": seen.state_hash, "to_act": to_act, "html": html,
            "announce": _announce(seen)}


def _board(seen: Seen) -> str:
    """Returns the board as inline SVG, then its key as a list (swatches drawn as SVG too, as the
    page's policy allows no inline style)."""
    view = seen.board()
    svg = to_svg(view_scene(view, page=True), seen.game.info.title)
    if not isinstance(view, BoardView):
        return svg
    items = []
    for kind, text, (r, g, b), _pattern in key_entries(view):
        fill, stroke = (f"rgb({r},{g},{b})", "#333") if kind in ("fill", "counter") else ("none", f"rgb({r},{g},{b})")
        shape = (f'<line x1="1" y1="8" x2="15" y2="8" stroke="{stroke}" stroke-width="3"/>' if kind == "line" else
                 f'<rect x="1" y="1" width="14" height="14" fill="{fill}" stroke="{stroke}" stroke-width="2"/>')
        items.append(f'<li><svg width="16" height="16" aria-hidden="true">{shape}</svg> {_e(text)}</li>')
    key = _("Key")
    return f'{svg}<details class="key"><summary>{_e(key)}</summary><ul>{"".join(items)}</ul></details>'


def _turn(seen: Seen, to_act: str | None) -> str:
    lines = [f"<li>{_e(line)}</li>" for line in seen.status()]
    head = _("Waiting for: {side}").format(side=_(to_act)) if to_act else _("Nobody is to play.")
    if seen.viewer is not None and to_act == seen.viewer:
        head = _("Your turn ({side})").format(side=_(to_act))
    return f'<p class="waiting">{_e(head)}</p><ul class="status">{"".join(lines)}</ul>'


def _said(seen: Seen, text: str) -> str:
    grammar = seen.game.grammar
    return grammar.say(text) if grammar is not None else text


def _rulings(seen: Seen) -> str:
    active = [e for e in seen.entries if e.active][-LAST_RULINGS:]
    if not active:
        return _none(_("No move yet."))
    items = []
    for entry in reversed(active):
        side = f' <span class="side">({_e(_side(entry.side))})</span>' if entry.side else ""
        body = [f'<p class="action">✓ {_e(_short(_said(seen, entry.text)))}{side}</p>']
        record = entry.record
        if record is not None:
            rolls = "".join(f'<li class="roll">{_roll(r)}</li>' for r in record.rolls)
            events = "".join(ruling_html(ev) for ev in record.events)
            line = marker(record.provisional, seen.game.info.decisive)
            warn = f'<li class="warn">{_e(line)}</li>' if line else ""
            body.append(f"<ul>{rolls}{events}{warn}</ul>")
        items.append(f'<li class="entry" data-seq="{entry.seq}">{"".join(body)}</li>')
    return f'<ol class="entries">{"".join(items)}</ol>'


def _dice(seen: Seen, commitment: str) -> str:
    rolls = [r for e in seen.entries if e.active and e.record is not None for r in e.record.rolls][-3:]
    listed = "".join(f"<li>{_roll(r)}</li>" for r in reversed(rolls))
    head = _("Dice commitment {fingerprint}").format(fingerprint=fingerprint(commitment))
    return f'<p class="commitment">{_e(head)}</p><ul class="rolls">{listed}</ul>'


def _last_bot(seen: Seen) -> tuple[int, str, tuple[Ruling, ...], tuple[str, ...]] | None:
    """Returns the latest entry a bot played: (seq, action, its steps, its disclosures)."""
    bots = seen.game.info.bot_sides
    for entry in reversed(seen.entries):
        if entry.active and entry.side in bots and entry.record is not None and entry.record.events:
            return entry.seq, entry.text, entry.record.events, entry.record.provisional
    return None


def _bot(seen: Seen) -> str:
    last = _last_bot(seen)
    if last is None:
        return ""
    _seq, text, steps, provisional = last
    items = "".join(ruling_html(step, "step") for step in steps)
    line = marker(provisional, seen.game.info.decisive)
    warn = f'<p class="warn">{_e(line)}</p>' if line else ""
    return f'<p class="action">{_e(_short(_said(seen, text)))}</p><ol class="steps">{items}</ol>{warn}'


def _announce(seen: Seen) -> dict[str, object] | None:
    """Returns what a page that speaks reads aloud: the latest bot operation or dice-rolling
    result (a combat), once per journal entry."""
    for entry in reversed(seen.entries):
        if not entry.active or entry.record is None:
            continue
        if entry.side in seen.game.info.bot_sides or entry.record.rolls:
            text = ". ".join(ev.text() for ev in entry.record.events)
            return {"seq": entry.seq, "text": text} if text else None
        return None
    return None


def _secrets(seen: Seen) -> str:
    reveal, label, secret, seal = _e(_("Reveal")), _e(_("Label")), _e(_("Secret")), _e(_("Seal"))
    rows = "".join(
        f'<li><b>{_e(s.label)}</b>: {_e(s.value)} <span class="cite">{_e(_sealed(s.fingerprint))}</span> '
        f'<button type="button" data-reveal="{_e(s.label)}">{reveal}</button></li>' for s in seen.secrets)
    mine = f'<ul class="secrets">{rows}</ul>' if rows else _none(_("No sealed secret."))
    form = (f'<form id="seal-form" autocomplete="off"><label>{label} <input name="label" required maxlength="60">'
            f'</label> <label>{secret} <input name="secret" required maxlength="400"></label> '
            f'<button type="submit">{seal}</button></form>')
    return mine + form


def _sealed(fingerprint: str) -> str:
    return _("sealed {fp}").format(fp=fingerprint)


def _none(text: str) -> str:
    return f'<p class="none">{_e(text)}</p>'


def _side(side: str) -> str:
    return _(side)


def _roll(roll: Roll) -> str:
    """Returns a roll as HTML: its purpose, its faces, who rolled."""
    purpose, source = say(roll.purpose), _(roll.source)
    return f'{_e(purpose)}: <b>{_e("+".join(map(str, roll.faces)))}</b> ({_e(source)})'


def _short(text: str, limit: int = 120) -> str:
    """Returns an action's text cut to ``limit`` characters at a space where it has one (a set-up
    action holds a whole position), so no word (a commitment) is shown cut."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    return (head.rsplit(" ", 1)[0] if " " in head else head) + " …"


def _actions(seen: Seen, to_act: str | None, players: Sequence[str]) -> str:
    """Returns the moves a player may make without tapping a counter (when there are few), or
    says whose turn it is; tapping a counter lists its own moves."""
    if not may_move(seen, to_act, players):
        return _none(_("Not your turn: tap a counter to see its moves when it is."))
    legal = seen.game.legal_actions(seen.state)
    if len(legal) > MAX_LISTED:
        return _none(_("Tap a counter to see its moves, or type a move."))
    return "".join(f'<button type="button" data-action="{_e(a.text())}">{_e(_said(seen, a.text()))}</button>'
                   for a in legal)


def may_move(seen: Seen, to_act: str | None, players: Sequence[str]) -> bool:
    """Returns whether this page's player may send the next move: it is their turn, or a bot's
    when they are the only player (the solo player starts PERS.IA's procedures)."""
    if seen.viewer is None or to_act is None:
        return False
    return to_act == seen.viewer or (to_act in seen.game.info.bot_sides and len(players) == 1)


def moves_for(seen: Seen, cell: str) -> list[tuple[str, str]]:
    """Returns (canonical action, action in the page's language) of each legal action that names
    the cell, or a counter standing on it (by its label or its name in the key)."""
    board = seen.board()
    words = {cell.casefold()}
    if isinstance(board, BoardView):
        for c in board.cells:
            if c.name == cell:
                labels = {k.label for k in c.counters if k.label and not k.hidden}
                words |= {lab.casefold() for lab in labels}
                words |= {w.casefold() for short, name, _side in board.legend if short in labels for w in name.split()}
    out = []
    for action in seen.game.legal_actions(seen.state):
        text = action.text()
        if words & {w.casefold() for w in text.split()}:
            out.append((text, _said(seen, text)))
    return out


def page(title: str, viewer: str | None, lang: str, first: dict[str, object]) -> str:
    """Returns the HTML document of a page, its sections filled with the first snapshot (the
    stream keeps them up to date); no inline script or style (the policy forbids both)."""
    html = first["html"]
    assert isinstance(html, dict)
    who = _("the table") if viewer is None else _(viewer)
    current = ' aria-current="true"'
    switch = " ".join(f'<a href="?lang={code}" data-lang="{code}"{current if code == lang else ""}>'
                      f"{LANGUAGE_NAMES[code]}</a>" for code in LANGUAGES)
    words = {"reconnecting": _("Reconnecting…"), "sending": _("Sending…"), "played": _("Played."),
             "moves-of": _("Moves of {cell}:"), "no-moves": _("No legal move for {cell}."),
             "failed": _("The server did not answer.")}
    data = " ".join(f'data-say-{k}="{_e(v)}"' for k, v in words.items())
    sections = [("turn", _("Turn")), ("board", ""), ("rulings", _("Last rulings")), ("dice", _("Dice")),
                ("bot", _("PERS.IA's last operation")), ("secrets", _("Your secrets")), ("actions", _("Your moves"))]
    body = []
    for key, heading in sections:
        if key not in html:
            continue
        head = f"<h2>{_e(heading)}</h2>" if heading else ""
        hidden = "" if html[key] else " hidden"
        body.append(f'<section id="s-{key}"{hidden}>{head}<div id="{key}">{html[key]}</div></section>')
    typed, play = _e(_("Type a move")), _e(_("Play"))
    player = "" if viewer is None else (
        f'<section id="s-play"><form id="type-form" autocomplete="off"><label>{typed} '
        f'<input name="action" maxlength="200" required></label> <button type="submit">{play}</button>'
        f'</form><p id="result" role="status" aria-live="polite"></p><div id="moves"></div></section>')
    speak = _("Read aloud")
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{_e(title)} — {_e(who)}</title><link rel="stylesheet" href="app.css"></head>'
            f'<body data-lang="{lang}" data-hash="{_e(first["hash"])}" data-version="{_e(first["version"])}" {data}>'
            f'<header><h1>{_e(title)} <small>{_e(who)}</small></h1><nav>{switch} '
            f'<label><input type="checkbox" id="speak"> {_e(speak)}</label></nav>'
            f'<p id="banner" role="status" hidden></p></header><main>{"".join(body)}{player}</main>'
            f'<script src="app.js"></script></body></html>')
