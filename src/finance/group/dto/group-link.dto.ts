import { ApiProperty } from '@nestjs/swagger';

export class GroupLinkDto {
  @ApiProperty({ description: "The property's link, as it was subscribed (`npm run group -- subscribe NAME …`)", example: 'macau' })
  name: string;

  @ApiProperty({ description: 'False when the link was switched off at the group' })
  enabled: boolean;

  @ApiProperty({
    description:
      "Whether the group is receiving the property's changes now. While false, the group's figures of that property stand as they were when the link went down; the property keeps its changes for the group until the link is back",
  })
  connected: boolean;

  @ApiProperty({ description: "The property's write-ahead log position last received", nullable: true, type: String, example: '0/3A2B1C8' })
  receivedLsn: string | null;

  @ApiProperty({
    description: 'When the property last sent anything (changes or a keep-alive), while connected',
    nullable: true,
    type: String,
    format: 'date-time',
  })
  lastMessageAt: string | null;

  @ApiProperty({ description: 'When the group last confirmed a position to the property, while connected', nullable: true, type: String, format: 'date-time' })
  latestEndAt: string | null;

  @ApiProperty({ description: "Published tables still in their first copy from the property (0 once the property's rows are all in)" })
  tablesCopying: number;
}
