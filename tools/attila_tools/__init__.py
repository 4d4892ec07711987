"""Host tools for makers: the `attila` command, flashing, layouts, analysis.

Layers, each importing only those below it (never the simulator):
  cli.py                  the `attila` command; hands `attila sim` to attila_sim
  analyse/ board/ solve/  the commands' work, by job
  draw/                   terminal text and pictures
  files.py gamefiles.py   the files a command is given: paths, layouts, saves, game logs
"""
