# Embedding tests (issue #5): the public API end to end, fault injection, concurrency, the exported
# symbols, the header as C and C++, the CLI's includes, and the embedding example in this tree.
set(_emb unit/test_embed_models.c)
osc_unit_test(test_embed unit/test_embed.c ${_emb})
osc_unit_test(test_fault unit/test_fault.c ${_emb})
osc_unit_test(test_options unit/test_options.c ${_emb}) # options by name, desc reserved tails
find_package(Threads REQUIRED)
osc_unit_test(test_threads unit/test_threads.c ${_emb})
target_link_libraries(test_threads PRIVATE Threads::Threads)
target_link_libraries(test_embed PRIVATE osc_test_support) # test_embed_models.c writes models
target_link_libraries(test_fault PRIVATE osc_test_support)
target_link_libraries(test_options PRIVATE osc_test_support)
target_link_libraries(test_threads PRIVATE osc_test_support)
# Calls on a session from its own node hook, during the run: refused (test_threads: from
# another thread).
osc_unit_test(test_busy unit/test_busy.c ${_emb})
target_link_libraries(test_busy PRIVATE osc_test_support)
set_tests_properties(test_embed test_fault test_options test_busy PROPERTIES LABELS "unit;embed")
# halt_on_error: the first race fails the test at once (ThreadSanitizer builds, OSC_TSAN=ON).
set_tests_properties(test_threads PROPERTIES LABELS "unit;embed;threads" TIMEOUT 300
  ENVIRONMENT "TSAN_OPTIONS=halt_on_error=1 second_deadlock_stack=1")
set_property(GLOBAL APPEND PROPERTY OSC_THREADS_TARGETS test_threads)

add_test(NAME embed_exports COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM}
  -DLIB=$<TARGET_FILE:onnxscatter_shared> -DHEADER=${PROJECT_SOURCE_DIR}/include/onnx_scatter.h
  -P ${PROJECT_SOURCE_DIR}/cmake/check_exports.cmake)
add_test(NAME embed_cli_public_header COMMAND ${CMAKE_COMMAND} -DDIR=${PROJECT_SOURCE_DIR}/tools
  -P ${PROJECT_SOURCE_DIR}/cmake/check_cli_includes.cmake)
set_tests_properties(embed_exports embed_cli_public_header PROPERTIES LABELS "unit;embed")

# The header alone compiles as strict C11 and as C++ (extern "C", no C-only constructs).
set(_hdr "${PROJECT_SOURCE_DIR}/include/onnx_scatter.h")
add_test(NAME embed_header_c COMMAND ${CMAKE_C_COMPILER} -std=c11 -Wall -Wextra -Wpedantic -Werror
  -fsyntax-only -x c "${_hdr}")
set_tests_properties(embed_header_c PROPERTIES LABELS "unit;embed")
find_program(OSC_CXX NAMES c++ g++ clang++)
if(OSC_CXX)
  add_test(NAME embed_header_cxx COMMAND ${OSC_CXX} -std=c++11 -Wall -Wextra -Wpedantic -Werror
    -fsyntax-only -x c++ "${_hdr}")
  set_tests_properties(embed_header_cxx PROPERTIES LABELS "unit;embed")
endif()

# The embedding example, linked here against the shared library target; the installed-package
# builds (find_package and pkg-config) run in tools/run-tests.sh install.
add_executable(embed_example "${PROJECT_SOURCE_DIR}/examples/embed/main.c")
target_link_libraries(embed_example PRIVATE onnxscatter::onnxscatter osc_flags)
add_test(NAME embed_example COMMAND embed_example
  "${PROJECT_SOURCE_DIR}/examples/scatter_elements/model.onnx")
set_tests_properties(embed_example PROPERTIES LABELS "unit;embed"
  PASS_REGULAR_EXPRESSION "output \\[3, 3\\]:\n *3 +2\\.1 +1\n *2 +1 +3\\.2\n *1 +3\\.1 +2\\.2\n")
# opts.inplace_inputs = 2: products and elementwise nodes written into a donated input's buffer.
osc_unit_test(test_inplace_same unit/test_inplace_same.c)
target_link_libraries(test_inplace_same PRIVATE osc_test_support)
set_tests_properties(test_inplace_same PROPERTIES LABELS "unit;embed")
