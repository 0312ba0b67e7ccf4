# test/json_encode_text.cmake — test_json_encode_text (test/
# test_json_encode_text.c): desert_json_encode_text against the whole-value
# path over the conformance cases, this repository's golden/ samples and
# hand-made cases. It needs desert::json, the JSON layer's internal header
# (the walk alone) and the repository's path for golden/.
if(TARGET test_json_encode_text)
  if(TARGET desert_json)
    target_link_libraries(test_json_encode_text PRIVATE desert::json)
    target_compile_definitions(test_json_encode_text PRIVATE
      DESERT_REPO_DIR="${PROJECT_SOURCE_DIR}")
    set_tests_properties(test_json_encode_text PROPERTIES LABELS "unit;json" TIMEOUT 600)
  else()
    set_tests_properties(test_json_encode_text PROPERTIES DISABLED TRUE)
  endif()
endif()
