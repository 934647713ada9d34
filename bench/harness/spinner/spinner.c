/* An app whose every call loops until Parlor stops it (its fuel budget, then its deadline): what
 * a careless or hostile neighbour does to the others on the server (bench scenario 10). Built
 * like examples/dice-c, with the same header. */
#include "../../../examples/dice-c/parlor.h"

static void parlor_app(pj call, pw *answer) {
    (void)call;
    (void)answer;
    volatile unsigned long spins = 0;
    for (;;) spins = spins + 1;
}
