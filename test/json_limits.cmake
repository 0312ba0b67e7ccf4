# test/json_limits.cmake — test_json_limits (test/test_json_limits.c): the
# caller's limits of the JSON layer's whole decode and encode, hostile
# inputs under the defaults, and the streaming reader's high-water mark.
# It needs desert::json; included by test/CMakeLists.txt after every
# test_*.c target exists.
if(TARGET test_json_limits)
  if(TARGET desert_json)
    target_link_libraries(test_json_limits PRIVATE desert::json)
  endif()
  set_tests_properties(test_json_limits PROPERTIES LABELS "unit;json" TIMEOUT 300)
endif()
