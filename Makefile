# The two commands of a fresh machine (README): `make run` and `make test`.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps build run test gpu-test dist-test fuzz bench-trsv clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# the main job: benchmark on the built-in problem (GPU engines when a GPU is present)
run: build
	$(BUILD)/domino bench

test: build
	cd $(BUILD) && ctest -L cpu --output-on-failure -j $(JOBS)

gpu-test: build
	cd $(BUILD) && ctest -L gpu --output-on-failure

# multi-GPU tests (label dist; one PE per GPU of the machine, NVSHMEM needed)
dist-test: build
	cd $(BUILD) && NVSHMEM_DISABLE_NVLS=1 ctest -L dist --output-on-failure

# libFuzzer run of the Matrix Market reader, bounded in time (FUZZ_SECONDS)
FUZZ_SECONDS ?= 60
fuzz: deps
	bash tests/fuzz/run-libfuzzer.sh $(FUZZ_SECONDS)

bench-trsv: build
	$(BUILD)/domino bench --suite trsv --csv bench/results/trsv.csv --json-out bench/results/trsv.json

clean:
	rm -rf $(BUILD) build-fuzz
