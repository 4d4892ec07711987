"""Host tools for makers: the `attila` command, flashing, layouts, analysis."""
