"""The game kept across power cuts: the save's text, the journal of changes,
whole-file writes, and the finished games kept aside.
"""
