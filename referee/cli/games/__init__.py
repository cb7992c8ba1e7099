"""Commands of one game only (``referee night`` for Iliad, ``referee persia`` for 300 solo).

One module per game package, named after it (``referee/cli/games/<package>.py``), with a
``register(root)`` function that adds its commands to the ``referee`` command line. These live in
the CLI layer, so a game never imports the command line: the CLI imports the games.
"""
