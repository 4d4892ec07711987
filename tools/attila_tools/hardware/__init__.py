"""The board as hardware: geometry of the module boards, KiCad generation, printable parts."""
