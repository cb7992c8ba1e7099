"""Ruling templates of earlier versions, no longer produced by the code.

Rulings are stored in a game file as a template and its values, and translated when shown; these
templates, stored by older versions, stay in the catalogs so such games still read in every language.
"""

from referee.i18n import N_

EARLIER = (
    N_("the {side} lost {lost} points today and may revive up to {limit} (two thirds, "
       "rounded up); {counters} are worth {total}"),
    N_("the {side} lost {lost} points today and revive nobody ({total} of {limit} points)"),
    N_("the {side} lost {lost} points today and revive {counters} ({total} of {limit} points)"),
)
