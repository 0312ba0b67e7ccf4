# test/stream.cmake — wiring for the streaming suites (issue 15).
#  * test_stream streams desert-scala's golden dataset through the example
#    model (examples/golden_model.c, compiled into the test).
if(TARGET test_stream)
  target_sources(test_stream PRIVATE ${PROJECT_SOURCE_DIR}/examples/golden_model.c)
  target_include_directories(test_stream PRIVATE ${PROJECT_SOURCE_DIR}/examples)
endif()
#  * test_stream_rss streams >= 1 GiB and asserts peak RSS <= 64 MiB; under
#    sanitizers it streams 64 MiB and does not assert the bound.
if(TARGET test_stream_rss)
  if(DESERT_SANITIZE)
    target_compile_definitions(test_stream_rss PRIVATE DESERT_RSS_SANITIZED=1)
  endif()
  set_tests_properties(test_stream_rss PROPERTIES LABELS "unit;stream" TIMEOUT 300)
endif()
