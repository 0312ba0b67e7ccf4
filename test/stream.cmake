# test/stream.cmake — wiring for the streaming suites (issue 15).
#  * test_stream streams desert-scala's golden dataset through the example
#    model (examples/golden_model.c, compiled into the test).
if(TARGET test_stream)
  target_sources(test_stream PRIVATE ${PROJECT_SOURCE_DIR}/examples/golden_model.c)
  target_include_directories(test_stream PRIVATE ${PROJECT_SOURCE_DIR}/examples)
endif()
