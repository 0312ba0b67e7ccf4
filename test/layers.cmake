# test/layers.cmake — structural checks of src/. The layer test: src/ files
# include and call only their own folder, lower layers and include/, with
# no circles between files
# (test/check_layers.py; the layer order is the table at its top). The
# object list comes from the library targets themselves, so a new file is
# checked the moment it is built. The writer entry check is at the end.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(_layer_objects "$<TARGET_OBJECTS:desert_objects>")
if(TARGET desert_json)
  set(_layer_objects "${_layer_objects};$<TARGET_OBJECTS:desert_json>")
endif()
file(GENERATE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/layer_objects.txt"
  CONTENT "$<JOIN:${_layer_objects},\n>\n")
add_test(NAME layers COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/check_layers.py
  --src ${PROJECT_SOURCE_DIR}/src --objects ${CMAKE_CURRENT_BINARY_DIR}/layer_objects.txt
  --nm ${CMAKE_NM})
add_test(NAME layers_selftest COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/check_layers.py
  --selftest --nm ${CMAKE_NM} --cc ${CMAKE_C_COMPILER})
set_tests_properties(layers layers_selftest PROPERTIES LABELS "hygiene" TIMEOUT 120)

# Every exported writer function settles a pending writer (one built by
# desert_writer_init, head only) before it reads past the head
# (test/check_writer_entries.py; test_writer_pending checks the same at
# run time on garbage-filled storage).
add_test(NAME writer_entries COMMAND Python3::Interpreter
  ${CMAKE_CURRENT_SOURCE_DIR}/check_writer_entries.py
  --src ${PROJECT_SOURCE_DIR}/src --include ${PROJECT_SOURCE_DIR}/include/desert)
add_test(NAME writer_entries_selftest COMMAND Python3::Interpreter
  ${CMAKE_CURRENT_SOURCE_DIR}/check_writer_entries.py --selftest)
set_tests_properties(writer_entries writer_entries_selftest PROPERTIES LABELS "hygiene" TIMEOUT 60)

# Every section that a comment, help text or document cites in
# docs/format.md / docs/schema.md exists there, and nothing cites the
# reference documents they replaced (test/scripts/check_doc_citations.py);
# with the tool built, `desert <cmd> --help` texts are checked too.
set(_doc_citations_args --root ${PROJECT_SOURCE_DIR})
if(TARGET desert_cli)
  list(APPEND _doc_citations_args --desert $<TARGET_FILE:desert_cli>)
endif()
add_test(NAME doc_citations COMMAND Python3::Interpreter
  ${CMAKE_CURRENT_SOURCE_DIR}/scripts/check_doc_citations.py ${_doc_citations_args})
set_tests_properties(doc_citations PROPERTIES LABELS "hygiene" TIMEOUT 120)
