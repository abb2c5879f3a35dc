# Thin wrapper: dependencies, build, run, test. The real build is meson.
BUILD ?= build
MESON_OPTS ?=
DEMO = $(BUILD)/tests/gen/callscope-demo.pcapng

.PHONY: all deps build run test clean

all: build

deps:
	@./scripts/install-deps.sh

$(BUILD)/build.ninja:
	meson setup $(BUILD) $(MESON_OPTS)

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD)

run: build
	GSETTINGS_SCHEMA_DIR=$(BUILD)/data ./$(BUILD)/src/app/callscope $(DEMO)

test: build
	@./scripts/run-tests.sh $(BUILD)

clean:
	rm -rf $(BUILD)
