# Thin wrapper: dependencies, build, run, test. The real build is meson.
BUILD ?= build
MESON_OPTS ?=
DEMO = $(BUILD)/tests/gen/callscope-demo.pcapng

# Reliability: the unit, golden, fuzz and hostile suites under ASan+UBSan
# (GTK off: its own leaks would drown ours), and valgrind on load/cancel/close.
BUILD_ASAN ?= build-asan
ASAN_SUITES = --suite unit --suite golden --suite fuzz --suite hostile

.PHONY: all deps build run test test-asan test-valgrind test-mutants clean

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

$(BUILD_ASAN)/build.ninja:
	meson setup $(BUILD_ASAN) -Dgtk=false -Db_sanitize=address,undefined -Dbuildtype=debugoptimized

test-asan: deps $(BUILD_ASAN)/build.ninja
	ninja -C $(BUILD_ASAN)
	@CS_FLOOD_N=200000 ./scripts/run-tests.sh $(BUILD_ASAN) $(ASAN_SUITES)

test-valgrind: build
	@./scripts/run-tests.sh $(BUILD) --suite valgrind

# Mutation check (not in CI, long): one-line engine mutations, each rebuilt in a scratch copy
# and run against the unit and golden suites; prints the survivors.
test-mutants: deps
	nice python3 tests/mutants/run-mutants.py $(MUTANTS_OPTS)

clean:
	rm -rf $(BUILD) $(BUILD_ASAN)
