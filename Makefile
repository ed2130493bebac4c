# The two commands of the README: `make demo` and `make test`. Both install what is
# missing, configure once, build incrementally and run.
BUILD ?= build
PRESET ?= default
CUDA_PATH ?= /usr/local/cuda

.PHONY: all deps configure build test demo install docs static gpu-bundle clean

all: build

deps:
	@CUDA_PATH=$(CUDA_PATH) scripts/install-deps.sh

$(BUILD)/build.ninja:
	@CUDA_PATH=$(CUDA_PATH) scripts/install-deps.sh
	cmake --preset $(PRESET) -DATOLL_CUDA_PATH=$(CUDA_PATH)

configure: $(BUILD)/build.ninja

build: deps configure
	cmake --build $(BUILD)

test: build
	@python3 scripts/run_tests.py --build-dir $(BUILD)

demo: build
	@scripts/demo.sh $(BUILD)

install: build
	cmake --install $(BUILD)

docs:
	@scripts/make-docs.sh

# The deployable flavour (LLVM linked statically) and the bundle for a GPU host.
static: deps
	@test -f build-static/build.ninja || cmake --preset static -DATOLL_CUDA_PATH=$(CUDA_PATH)
	cmake --build build-static

gpu-bundle: static
	@scripts/make-gpu-bundle.sh build-static .gpu-bundle

clean:
	rm -rf $(BUILD) build-static install .gpu-bundle
