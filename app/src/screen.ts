/** What a screen is given: the rest of its address (#/tables/<id> gives [id]). */
export interface ScreenProps {
  args: string[];
}
