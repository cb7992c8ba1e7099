"""Ruling templates of earlier versions, no longer produced by the code.

Rulings are stored in a game file as a template and its values, and translated when shown; these
templates, stored by older versions, stay in the catalogs so such games still read in every language.
"""

from referee.i18n import N_

EARLIER = (
    N_("{card}: Greece discards its other {n} cards and draws {m} (name them with 'draw NAME')"),
    N_("{card}: Greece makes up to {n} naval moves without armies, costing no card "
       "('sail N PORT PORT'; 'done' ends them)"),
    N_("{card}: Greece prepares with {n} talents now ('buy ...', then 'done' ends its turn)"),
    N_("{card}: Greece rolls {n} dice in the battle of {city}"),
)
