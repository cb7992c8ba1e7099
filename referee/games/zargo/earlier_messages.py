"""Ruling templates of earlier versions, no longer produced by the code.

Rulings are stored in a game file as a template and its values, and translated when shown; these
templates, stored by older versions, stay in the catalogs so such games still read in every language.
"""

from referee.i18n import N_

EARLIER = (
    N_("the garrison of {hex} has {n} counters, more than the {m} besiegers: they are eliminated"),
    N_("the {people} have built their {n} cities"),
)
