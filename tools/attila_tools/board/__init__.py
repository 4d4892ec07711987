"""The real board's side: build the firmware, flash it, talk to the device, fetch games, check layouts."""
