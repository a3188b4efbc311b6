"""Reading the three input documents (game log, score sheet, shipping position) with positions."""
