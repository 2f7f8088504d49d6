# Included by extender/CMakeLists.txt: the app's sources and dependencies beyond app/extender_app.cpp.
list(APPEND KOORD_EXTENDER_APP_SOURCES app/serve.cpp app/k8s_binder.cpp app/probe_command.cpp)
list(APPEND KOORD_EXTENDER_APP_DEPS koord_extender_server koord_extender_config
     koord_extender_framework koord_extender_objects koord_extender_plugins koord_extender_simulator koord_extender_reservation koord_k8s
     CURL::libcurl)
