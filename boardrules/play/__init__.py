"""`boardrules play` and `boardrules replay`: an edition's game in the terminal (textual)."""
