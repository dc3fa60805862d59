# Installs the `digno` command: `make install PREFIX="$HOME/.local"` (default /usr/local).
#
# A release build. On Linux the Swift runtime and Foundation are linked into the binary
# (--static-swift-stdlib), so it runs where no Swift is installed; it still uses the system's
# SQLite, libxml2, ICU and libcurl. On macOS the Swift runtime is part of the system.
#
#   make install PREFIX=DIR    build and copy the binary to DIR/bin/digno
#   make uninstall PREFIX=DIR  remove it
#   make digno                 build only; the binary's path is printed
#   make dist                  the release archive for Linux: dist/digno-<version>-linux-<machine>.tar.gz
#                              (the binary, the digno-studio launcher, README.txt, the licences of
#                              what is linked in; scripts/dist.py), for a machine without Swift
#
# SWIFT_FLAGS adds flags to `swift build` (CI passes -Xswiftc -warnings-as-errors);
# SCRATCH_PATH chooses its build folder (default .build).

PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
SWIFT ?= swift
SWIFT_FLAGS ?=
SCRATCH_PATH ?= .build

# FlyingFox (digno preview's HTTP server) brings Foundation's networking, which links libcurl
# from the system when the runtime is linked in (Debian: libcurl4-openssl-dev to build,
# libcurl4 to run).
ifeq ($(shell uname -s),Linux)
STATIC_FLAGS = --static-swift-stdlib
endif

BUILD = $(SWIFT) build -c release --product digno --scratch-path "$(SCRATCH_PATH)" $(STATIC_FLAGS) $(SWIFT_FLAGS)

.PHONY: digno install uninstall dist

digno:
	$(BUILD)
	@echo "built $$($(BUILD) --show-bin-path)/digno"

install: digno
	install -d "$(BINDIR)"
	install -m 0755 "$$($(BUILD) --show-bin-path)/digno" "$(BINDIR)/digno"
	@echo "installed $(BINDIR)/digno"

uninstall:
	rm -f "$(BINDIR)/digno"

dist: digno
	python3 scripts/dist.py --binary "$$($(BUILD) --show-bin-path)/digno" --checkouts "$(SCRATCH_PATH)/checkouts" --output dist
