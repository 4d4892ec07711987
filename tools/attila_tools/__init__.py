"""Host tools for makers: the `attila` command, flashing, layouts, analysis.

Layers, each importing only those below it, and never the simulator
(tests/tools/test_layers.py checks it):
  cli.py                  the `attila` command; hands `attila sim` to attila_sim by name
  analyse/                judging a game (on solve/)
  board/                  build, device, onboard, flash, games, layout checks (on draw/)
  solve/                  the solvers, their certificates and books
  draw/                   terminal text and pictures
  files.py gamefiles.py   the files a command is given: paths, layouts, saves, game logs
  replayfile.py           a saved game or a game log read from its bytes (also on the board page)
  squares.py              square sets as bitmasks
  errors.py options.py    the one error base (cli.main prints it), the commands' parser
"""
