import os

# Headless pygame: every window test draws into SDL's dummy video driver.
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
