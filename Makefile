# Attila board: every command sets itself up from a fresh clone.
#   make sim     play (desktop simulator; text mode where there is no display)
#   make test    every test: MicroPython unix, MicroPython WebAssembly, CPython,
#                the firmware on the emulated Pico under MicroPython and under
#                CircuitPython (tests/pico), the browser page, the docs (strict)
#   make bench   speed and heap figures on CPython and MicroPython (make bench-test-time:
#                how long a fresh clone's make install and make test take, part by part)
#   make solve   who wins each layout from the empty board (LAYOUT=... for one)
#   make flash   build and copy the firmware to a board (PORT=..., LAYOUT=..., PROFILE=...;
#                COMPUTER=R|H|none, LEVEL=beginner|easy|normal|strong, CARD=1|0 go into
#                the profile copied to the board)
#   make docs    build the docs site strictly into build/site (make docs-serve: serve it locally
#                and reload pages as you edit them; make docs-preview: serve it without
#                reloading, pages a headless browser finishes loading)
#   make broker  a local MQTT broker (mosquitto) for online play: plain and WebSocket
#   make hardware  regenerate the KiCad boards (boards/pcb) and write their Gerbers,
#                JLCPCB BOM and placement, interactive BOM, renders and schematics and the
#                4x5 shopping list into build/hardware (KiCad 9), the printable parts' STL
#                and STEP (make hardware-parts: those alone) and the signal simulation
#                (make hardware-sim: that alone, ngspice); PITCH=MM and/or MODULE="CxR ...":
#                the boards for other squares or modules into build/hardware/boards-MMmm,
#                each held to every check

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
WASM := tools/wasm/node_modules/.installed
PICO := tools/pico/node_modules/.installed

RETRO := tools/attila_tools/solve/_retro.so
DOCS := NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs
DOCS_CONFIG := -f docs/mkdocs.yml

.PHONY: all install sim test test-others test-pico test-circuitpython test-micropython test-wasm test-cpython test-docs bench bench-test-time solve flash docs docs-serve docs-preview clean hardware hardware-parts hardware-sim hardware-models ngspice broker

all: install

# System packages (mtools for the emulated CircuitPython board's CIRCUITPY,
# Chromium for the browser page, KiCad 9) are Debian's, installed by .ci/run;
# where one is missing, the tests that need it are skipped with the reason.
install: $(STAMP) $(WASM) $(PICO) $(RETRO)

# The retrograde solver's kernel (plain C, loaded with ctypes by attila_tools.solve.retro).
$(RETRO): tools/attila_tools/solve/retro.c
	gcc -O2 -std=c11 -Wall -Wextra -shared -fPIC -pthread -o $@ $<

$(STAMP): requirements.txt requirements-circuitpython.txt requirements-ibom.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps --upgrade --target $(VENV)/circuitpython -r requirements-circuitpython.txt
	$(PY) -m pip install --quiet --no-deps --upgrade --target $(VENV)/ibom -r requirements-ibom.txt
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

$(WASM): tools/wasm/package.json tools/wasm/package-lock.json
	cd tools/wasm && npm ci --silent --no-audit --no-fund
	touch $@

$(PICO): tools/pico/package.json tools/pico/package-lock.json
	cd tools/pico && npm ci --silent --no-audit --no-fund
	touch $@

sim: $(STAMP) $(RETRO)
	$(BIN)/attila sim $(ARGS)

# The emulated-Pico tests (tests/pico, MicroPython's and CircuitPython's) run
# alongside the others on two job slots, the longest first in each, the
# CPython suite right after CircuitPython's (docs/pages/inside/tests.md); how
# long each part takes: docs/figures/long_test_time.md (make bench-test-time).
test: install
	$(MAKE) -j2 --output-sync=target test-pico test-circuitpython test-others

test-others: test-cpython test-micropython test-wasm test-docs

test-pico: install
	$(PY) -m pytest tests/pico --ignore-glob='tests/pico/test_cp_*.py'

test-circuitpython: install
	$(PY) -m pytest tests/pico/test_cp_*.py

test-micropython: install
	$(PY) tools/mpytest.py unix

test-wasm: install
	$(PY) tools/mpytest.py wasm

test-cpython: install
	$(PY) -m pytest --ignore=tests/pico

# The docs site in strict mode: a broken link, a page missing from the
# navigation or an included file that is not there fails.
test-docs: install
	$(DOCS) build --strict $(DOCS_CONFIG)

bench: install
	$(PY) tools/bench/run.py

# A local MQTT broker for online play (docs/pages/play/distance.md): Debian's
# mosquitto with a plain listener (1883) and a WebSocket one (9001, for the
# browser page); ARGS="--lan" lets boards and phones on your Wi-Fi reach it.
broker: install
	$(PY) tools/broker/mosquitto.py $(ARGS)

# A fresh clone's make install and make test, timed part by part into
# docs/figures/long_test_time.md: as long as make test itself, so not part of make bench.
bench-test-time: install
	$(PY) tools/bench/run.py long_test_time

# Whole layouts from the empty board: certificates and setup books in boards/solved/.
solve: install
	$(BIN)/attila solve --from-setup $(or $(LAYOUT),$(wildcard boards/*.json)) $(ARGS)

flash: install
	$(BIN)/attila flash $(if $(PORT),--port $(PORT)) $(if $(LAYOUT),--layout $(LAYOUT)) $(if $(PROFILE),--profile $(PROFILE)) $(if $(COMPUTER),--computer $(COMPUTER)) $(if $(LEVEL),--level $(LEVEL)) $(if $(CARD),--card $(CARD)) $(ARGS)

# The docs site (docs/mkdocs.yml, pages in docs/pages) into build/site, after
# redrawing the schematics from the hardware profiles and the LED pictures
# from the controller's frames.
docs: install
	$(PY) tools/docs/schematics.py
	$(PY) tools/docs/ledpictures.py
	$(PY) tools/docs/architecture.py
	$(DOCS) build --strict $(DOCS_CONFIG)

# The KiCad boards from the generator (tools/attila_tools/hardware), and what a
# fab needs from them (needs kicad-cli and KiCad's pcbnew: .ci/run installs
# KiCad 9). With PITCH= or MODULE=: `attila hardware` writes the projects for
# other squares or modules (build/hardware/boards-MMmm) and checks them.
ifneq ($(PITCH)$(MODULE),)
hardware: install
	$(BIN)/attila hardware $(if $(PITCH),--pitch $(PITCH)) $(foreach m,$(MODULE),--module $(m)) $(ARGS)
else
hardware: install hardware-parts hardware-sim
	$(BIN)/attila hardware --committed
endif

# CLOCK, LOAD and the LED data over the chain's ribbon, simulated with ngspice
# (Debian's package), and the 5 V left at the last module: the pictures and
# figures on docs/pages/build/signals.md (docs/figures/signals*.md).
hardware-sim: install ngspice
	$(PY) -m attila_tools.hardware.signalpage

# ngspice (Debian package) runs the signal simulation; as root it is installed
# when missing, else `make hardware-sim` and its test say why they cannot run.
ngspice:
	@command -v ngspice >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
		{ apt-get install -y -qq ngspice >/dev/null 2>&1 || \
		  { apt-get update -qq && apt-get install -y -qq ngspice >/dev/null; }; }; } || \
		echo "make: ngspice is not installed (apt-get install ngspice): the signal simulation cannot run"

# KiCad's 3D models of the parts the boards show, into boards/3dmodels (once,
# after a board gains a part: apt-get downloads Debian's 332 MB model package).
hardware-models: install
	$(PY) -m attila_tools.hardware.models3d --fetch

# The printable parts (a tray and a light baffle for each module kind, the
# controller's case): STL and STEP in build/hardware, one line a part; their
# drawings in docs/pages/build/printed and figures in docs/figures/parts*.md.
hardware-parts: install
	@$(PY) -m attila_tools.hardware.parts.export

docs-serve: install
	$(DOCS) serve $(DOCS_CONFIG) $(if $(DOCS_ADDR),-a $(DOCS_ADDR))

# The same site without live reload: MkDocs' reload keeps a request open on
# every page, so a headless browser (a screenshot, a scripted check) waiting
# for the network to go quiet never sees it finish (DOCS_ADDR=HOST:PORT to move it).
docs-preview: install
	$(DOCS) serve --no-livereload $(DOCS_CONFIG) $(if $(DOCS_ADDR),-a $(DOCS_ADDR))

clean:
	rm -rf $(VENV) tools/wasm/node_modules tools/pico/node_modules build .pytest_cache .hypothesis $(RETRO)
