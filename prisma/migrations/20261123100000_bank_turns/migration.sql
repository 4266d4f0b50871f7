-- A chemin de fer bank taken out of turn after a retirement (the seats before the taker declined
-- the offer) does not move the rotation: when it is lost, the turn goes back to the first seat that
-- declined. That seat is kept here; null when the banker holds the bank in their own turn.
ALTER TABLE "banks" ADD COLUMN "out_of_turn_for" INTEGER;
