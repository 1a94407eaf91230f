/* session.c: placeholder. */
typedef int osc_placeholder_session;
