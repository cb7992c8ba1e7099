"""How a 300 solo state is shown: the city table (a map that is not a grid) and the status lines."""

from __future__ import annotations

from referee.game import MapView
from referee.games.earth_water import layout
from referee.games.earth_water.play_cards import hand_text
from referee.games.earth_water.sequence import PHASE_NAMES, reason_text, score_text
from referee.games.earth_water.state import EarthWaterState, units
from referee.games.earth_water.tables import Phase, Side
from referee.i18n import _


def board_view(state: EarthWaterState) -> MapView:
    """Returns the board as data for the terminal and PNG renderers."""
    s = state
    rows: list[tuple[str, ...]] = []
    for city in s.tables.cities:
        row, g = s.tables.row(city), s.at(city)
        holder = s.controller(city)
        major = "" if row.major is None else (_("Greek Major") if row.major is Side.GREECE else _("Persian Major"))
        rows.append((
            city + (" ⚔" if s.battle is not None and s.battle.city == city else ""), major,
            _("port") if row.port else "", str(row.amphorae),
            _pair(g.greek_armies, g.greek_fleets), _pair(g.persian_armies, g.persian_fleets),
            _(holder.label) if holder else "",
        ))
    notes = (_("armies/fleets per side (A armies, F fleets); ⚔ pending battle"),
             _("bridge built") if s.bridge else _("bridge destroyed"))
    places, links = layout.places(s)
    return MapView(title=_("300: Earth & Water — solo"), columns=(
        _("City"), _("Major"), _("Port"), _("Amph."), _("Greek A/F"), _("Persian A/F"), _("Control")),
        rows=tuple(rows), status=tuple(status_lines(s)), notes=notes, places=places, links=links,
        side_colours=layout.SIDE_COLOURS, side_marks=layout.SIDE_MARKS, link_kinds=layout.link_kinds())

def status_lines(state: EarthWaterState) -> list[str]:
    """Returns short lines on the turn, phase and what the game waits for."""
    s = state
    lines = [_("Campaign {campaign}, {phase}; score {score}; hands Persia {persia}, Greece {greece}").format(
        campaign=s.campaign, phase=_(PHASE_NAMES[s.phase]), score=score_text(s.score), persia=s.hands.persia,
        greece=s.hands.greece)]
    if s.phase is Phase.OVER:
        return [*lines, _("Game over: {reason}").format(reason=reason_text(s.end_reason))]
    if s.hands.greece:
        lines.append(_("Greek hand: {cards}").format(cards=hand_text(s)))
    reserve = s.greek_reserve()
    lines.append(_("Greek reserve {armies}, {fleets}; portraits: Persia {persia}, Greece {greece}").format(
        armies=units(reserve[0], "army"), fleets=units(reserve[1], "fleet"), persia=s.portraits.persia,
        greece=s.portraits.greece))
    if s.battle is not None:
        battle = (_("Naval battle in {city} (round {round} next): fight | resolve | retreat CITY")
                  if s.battle.kind == "naval" else
                  _("Land battle in {city} (round {round} next): fight | resolve | retreat CITY"))
        lines.append(battle.format(city=s.battle.city, round=s.battle.rounds + 1))
    elif s.may_burn:
        lines.append(_("Greece may burn the bridge now: burn bridge"))
    waiting = {
        Phase.PERSIAN_PREPARATION: _("Next: referee persia prepare"),
        Phase.GREEK_PREPARATION: _("Greece prepares: {talents} left (buy ..., done)").format(
            talents=units(s.greek_talents, "talent")),
        Phase.PERSIAN_SUPPLY: _("Next: referee persia supply"),
        Phase.GREEK_SUPPLY: _("Greece supplies: remove {n} for attrition, keep N, done").format(n=s.attrition_due),
    }
    if s.phase is Phase.OPERATIONS and s.battle is None:
        lines.append(_("Next: referee persia operate") if s.active is Side.PERSIA
                     else _("Greece operates: move | sail | event | pass"))
    elif s.phase in waiting:
        lines.append(waiting[s.phase])
    return lines


def _pair(armies: int, fleets: int) -> str:
    if not armies and not fleets:
        return ""
    return f"{armies}/{fleets}"
